"""SemEval-2022 Task 2 Subtask A: predictions in the official submission format, and scores.

Settings: ``zero-shot`` trains on ``train_zero_shot``; ``one-shot`` continues that model on the
one-shot examples (``train_one_shot`` for the dev/eval MWEs and ``train_one_shot_test`` for the
test MWEs), selecting on dev as AStitch does. Predictions are written for dev, eval and test
into ``<split>_submission.csv`` (``ID,Language,Setting,Label``, the rows of the organisers'
template in its order, 0 = idiomatic, 1 = not): a run fills its setting's rows and keeps the
other setting's rows from an earlier run. Macro-F1 is reported on dev and eval (eval gold: the
derived file), overall and per language.

With an English-only encoder (the packaged ones) only English is trained, predicted and scored;
Portuguese and Galician rows are left empty in the submission files and marked so in the
results, rather than reporting an English model on them. Since SemEval's English
``train_zero_shot`` is AStitch's, the English zero-shot model is shared with
``idiomkit eval figurative --dataset astitch`` (same cache entry).
"""

from __future__ import annotations

import csv
import sys
from pathlib import Path
from typing import Any

from ..errors import ConfigError

_TEMPLATES = {"dev": ("Data", "dev_submission_format.csv"),
              "eval": ("Data", "eval_submission_format.csv"),
              "test": ("TestData", "test_submission_format.csv")}
_SETTING = {"zero-shot": "zero_shot", "one-shot": "one_shot"}


def run_semeval(setting: str, *, predictions: str | Path | None = None,
                formats: tuple[str, ...] | None = None, model: str = "minilm",
                num_layers: int | None = None, epochs: int = 3, lr: float = 1e-3,
                seed: int = 0, threads: int = 2, data_dir: str | Path | None = None,
                use_cache: bool = True, progress: bool = True) -> dict[str, Any]:
    """Train, select on dev, predict dev/eval/test, score dev/eval; a results object."""
    from ..datasets import load_dataset, resolve_data_dir
    from ..evaluate.figurative import binary_scores
    from ..evaluate.results import make_results
    from ..models.train import TrainConfig
    from . import experiments
    from .data import items_from_dataset
    from .model import ClassifierConfig, train_classifier

    if setting not in _SETTING:
        raise ConfigError("E462", f"SemEval Subtask A has the settings zero-shot and one-shot, "
                          f"not '{setting}'.")
    english_only = str(model).lower() in experiments._ENGLISH_ONLY
    languages = ("EN",) if english_only else ("EN", "PT", "GL")

    def load(split: str):
        items = items_from_dataset(load_dataset("semeval-a", split, data_dir))
        return [i for i in items if i.language in languages]

    fmt = (formats or ("span+mwe",))[0]
    config = ClassifierConfig(base=model, num_layers=num_layers, format=fmt)
    if english_only:
        # identical to AStitch EN zero-shot training: reuse (and share) its cached model
        results = experiments.run_astitch(
            "zero-shot", subtask="1a", language="EN", split="dev", formats=(fmt,),
            model=model, num_layers=num_layers, epochs=epochs, lr=lr, seed=seed,
            threads=threads, data_dir=data_dir, use_cache=True, progress=progress)
        del results
        key = experiments._key({"dataset": "astitch", "config": config.to_dict(),
                                "train": TrainConfig(epochs=epochs, lr=lr, seed=seed,
                                                     threads=threads).to_dict()})
        clf = experiments._load_trainable(experiments._cache_root() / key, config)
    else:
        clf, _ = train_classifier(load("train_zero_shot"), load("dev"), config,
                                  TrainConfig(epochs=epochs, lr=lr, seed=seed, threads=threads),
                                  progress=progress)
    dev = load("dev")
    if setting == "one-shot":
        shots = load("train_one_shot") + load("train_one_shot_test")
        clf, _ = train_classifier(shots, dev, config, TrainConfig(
            epochs=6, lr=lr, seed=seed, threads=threads, patience=3, warmup=0.0),
            init=clf, progress=progress)
    metrics: dict[str, Any] = {"format": fmt, "languages_predicted": list(languages)}
    root = resolve_data_dir(data_dir)
    written = {}
    for split in ("dev", "eval", "test"):
        items = load(split)
        probs = clf.predict_proba(items)
        labels = {i.meta["official_id"]: ("0" if p >= 0.5 else "1")
                  for i, p in zip(items, probs)}
        if split != "test":
            gold = [i.label for i in items]
            pred = [1 if p >= 0.5 else 0 for p in probs]
            per = {"overall": binary_scores(gold, pred)}
            for language in languages:
                idx = [k for k, i in enumerate(items) if i.language == language]
                if idx:
                    per[language] = binary_scores([gold[k] for k in idx], [pred[k] for k in idx])
            for language in ("PT", "GL"):
                if language not in languages:
                    per[language] = "not evaluated: the encoder is English-only; give a " \
                        "multilingual one with --model"
            metrics[split] = per
        if predictions is not None:
            written[split] = str(write_submission(
                Path(predictions), split, _SETTING[setting], labels,
                root.joinpath("semeval2022_task2", "SubTaskA", *_TEMPLATES[split])))
    if progress:
        print(f"semeval-a {setting}: dev {metrics['dev']['overall']['macro_f1']:.4f}, eval "
              f"{metrics['eval']['overall']['macro_f1']:.4f}", file=sys.stderr, flush=True)
    eval_set = load_dataset("semeval-a", "eval", data_dir)
    return make_results(
        task="semeval2022-task2a", dataset=eval_set, split="dev+eval",
        configuration={"setting": setting, "model": model, "format": fmt,
                       "num_layers": num_layers, "epochs": epochs, "lr": lr,
                       "threads": threads, "english_only_encoder": english_only},
        metrics=metrics, n=len(eval_set), seed=seed,
        extra={"predictions": written})


def write_submission(folder: Path, split: str, setting: str, labels: dict[str, str],
                     template: Path) -> Path:
    """Fill the template's rows of ``setting`` from ``labels`` (by ID); keep other rows from
    an earlier file in ``folder``; write ``<split>_submission.csv``."""
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"{split}_submission.csv"
    earlier: dict[tuple[str, str], str] = {}
    if target.exists():
        with open(target, encoding="utf-8", newline="") as handle:
            earlier = {(r["ID"], r["Setting"]): r["Label"] for r in csv.DictReader(handle)}
    with open(template, encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.DictReader(handle))
    with open(target, "w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["ID", "Language", "Setting", "Label"])
        for row in rows:
            key = (row["ID"], row["Setting"])
            label = labels.get(row["ID"], "") if row["Setting"] == setting \
                else earlier.get(key, "")
            writer.writerow([row["ID"], row["Language"], row["Setting"], label])
    return target


def markdown_table(results: dict[str, Any]) -> str:
    """Macro-F1 per split and language, as a Markdown table."""
    metrics = results["metrics"]
    lines = [f"SemEval-2022 Task 2 Subtask A, {results['configuration']['setting']} "
             f"({results['configuration']['model']}, format {metrics['format']})", "",
             "| split | overall | EN | PT | GL |", "|---|---|---|---|---|"]
    for split in ("dev", "eval"):
        cells = []
        for key in ("overall", "EN", "PT", "GL"):
            value = metrics[split].get(key)
            cells.append(f"{value['macro_f1']:.3f}" if isinstance(value, dict) else "–")
        lines.append(f"| {split} | " + " | ".join(cells) + " |")
    if results["configuration"]["english_only_encoder"]:
        lines += ["", "English only: the encoder is English-only, so PT/GL were neither "
                  "predicted nor scored (their submission rows are empty)."]
    for split, path in results.get("predictions", {}).items():
        lines.append(f"- {split} predictions: {path}")
    return "\n".join(lines)
