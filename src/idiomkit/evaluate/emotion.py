"""Emotion recognition metrics (IDEM Table 3), as pure functions over class indices.

Labels are indices into :data:`idiomkit.emotion.labels.EMOTIONS`. Scores are fractions.
``weighted_f1`` is the paper's "F1-score weighted over all classes": per-class F1 averaged with
each class's share of the gold labels. ``macro_f1`` averages per-class F1 over the classes that
occur in the gold or predicted labels (as scikit-learn does), so IDEM test's absent Lust does not
count unless it is predicted.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..emotion.labels import EMOTIONS

#: IDEM paper, Table 3 (IDEM test, 956 sentences): fractions
PAPER_TABLE3: dict[str, dict[str, dict[str, float]]] = {
    "seq-ignorant": {"bert-base-cased": {"accuracy": 0.5418, "weighted_f1": 0.5355},
                     "roberta-base": {"accuracy": 0.5837, "weighted_f1": 0.5785}},
    "seq-aware": {"bert-base-cased": {"accuracy": 0.5450, "weighted_f1": 0.5328},
                  "roberta-base": {"accuracy": 0.5879, "weighted_f1": 0.5873}},
    "pair-ignorant": {"bert-base-cased": {"accuracy": 0.5387, "weighted_f1": 0.5309},
                      "roberta-base": {"accuracy": 0.5900, "weighted_f1": 0.5852}},
    "pair-aware": {"bert-base-cased": {"accuracy": 0.5262, "weighted_f1": 0.5184},
                   "roberta-base": {"accuracy": 0.5701, "weighted_f1": 0.5693}},
    "prompt-ignorant": {"bert-base-cased": {"accuracy": 0.4801, "weighted_f1": 0.4867},
                        "roberta-base": {"accuracy": 0.5220, "weighted_f1": 0.5246}},
    "prompt-aware": {"bert-base-cased": {"accuracy": 0.4728, "weighted_f1": 0.4895},
                     "roberta-base": {"accuracy": 0.5073, "weighted_f1": 0.5220}},
    "llm-ignorant": {"gpt-4": {"accuracy": 0.6100, "weighted_f1": 0.6105}},
    "llm-aware": {"gpt-4": {"accuracy": 0.5566, "weighted_f1": 0.5575}},
    # section 6.2: RoBERTa seq-aware fed the hybrid finder's idioms instead of gold ones
    "pipeline": {"roberta-base + hybrid finder": {"accuracy": 0.5785, "weighted_f1": 0.5767}},
}


def confusion_matrix(gold: Sequence[int], predicted: Sequence[int],
                     n_classes: int = len(EMOTIONS)) -> np.ndarray:
    """``[gold, predicted]`` counts.

    >>> confusion_matrix([0, 0, 1], [0, 1, 1], 2).tolist()
    [[1, 1], [0, 1]]
    """
    gold_a, pred_a = np.asarray(gold, dtype=np.int64), np.asarray(predicted, dtype=np.int64)
    if gold_a.shape != pred_a.shape:
        raise ValueError(f"confusion_matrix: 'gold' and 'predicted' must have the same length. "
                         f"Got {len(gold_a)} and {len(pred_a)}.")
    matrix = np.zeros((n_classes, n_classes), dtype=np.int64)
    np.add.at(matrix, (gold_a, pred_a), 1)
    return matrix


def per_class(matrix: np.ndarray) -> dict[str, np.ndarray]:
    """Per-class ``precision``, ``recall``, ``f1`` and ``support`` from a confusion matrix
    (a ratio with a zero denominator is 0)."""
    tp = np.diag(matrix).astype(np.float64)
    predicted = matrix.sum(0).astype(np.float64)
    support = matrix.sum(1).astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        precision = np.where(predicted > 0, tp / predicted, 0.0)
        recall = np.where(support > 0, tp / support, 0.0)
        f1 = np.where(precision + recall > 0, 2 * precision * recall / (precision + recall), 0.0)
    return {"precision": precision, "recall": recall, "f1": f1, "support": support}


def emotion_scores(gold: Sequence[int], predicted: Sequence[int]) -> dict[str, float]:
    """``accuracy``, ``weighted_f1``, ``macro_f1`` and ``n``.

    Three sentences of class 0, one of class 1; one class-0 sentence is called class 1:
    class 0 has F1 0.8, class 1 has F1 0.667.

    >>> scores = emotion_scores([0, 0, 0, 1], [0, 0, 1, 1])
    >>> {k: round(v, 4) for k, v in scores.items()}
    {'accuracy': 0.75, 'weighted_f1': 0.7667, 'macro_f1': 0.7333, 'n': 4}
    """
    n_classes = max(len(EMOTIONS), int(max(gold, default=0)) + 1,
                    int(max(predicted, default=0)) + 1)
    matrix = confusion_matrix(gold, predicted, n_classes)
    n = int(matrix.sum())
    if n == 0:
        return {"accuracy": 0.0, "weighted_f1": 0.0, "macro_f1": 0.0, "n": 0}
    stats = per_class(matrix)
    used = (stats["support"] > 0) | (matrix.sum(0) > 0)
    return {
        "accuracy": float(np.trace(matrix) / n),
        "weighted_f1": float((stats["f1"] * stats["support"]).sum() / n),
        "macro_f1": float(stats["f1"][used].mean()),
        "n": n,
    }


def per_emotion_table(gold: Sequence[int], predicted: Sequence[int]) -> list[dict]:
    """One row per emotion: ``emotion``, ``precision``, ``recall``, ``f1``, ``support``."""
    n_classes = max(len(EMOTIONS), int(max(predicted, default=0)) + 1)
    stats = per_class(confusion_matrix(gold, predicted, n_classes))
    return [{"emotion": label, **{k: float(stats[k][i]) for k in ("precision", "recall", "f1")},
             "support": int(stats["support"][i])} for i, label in enumerate(EMOTIONS)]


# --- the harness ---------------------------------------------------------------------------------
TASK = "emotion"


def reference_for(config: str) -> dict[str, dict[str, float]]:
    """The paper's numbers for a configuration (``model`` compares with the best idiom-aware
    fine-tuned model, RoBERTa seq-aware, and GPT-4)."""
    if config == "model":
        return {"roberta-base seq-aware (paper best fine-tuned)": PAPER_TABLE3["seq-aware"][
            "roberta-base"], "gpt-4 llm-ignorant (paper best)": PAPER_TABLE3["llm-ignorant"][
            "gpt-4"]}
    return dict(PAPER_TABLE3.get(config, {}))


def evaluate_emotion(configs: Sequence[str], *, encoders: Sequence[str] = ("minilm",),
                     split: str = "test", data_dir=None, seed: int = 0,
                     model: str = "default", llm: str | None = None,
                     llm_base_url: str | None = None, llm_limit: int | None = None,
                     plots_dir=None, progress: bool = True) -> dict:
    """Run IDEM Table 3 configurations and return one results object (see
    :func:`~idiomkit.evaluate.results.make_results`): ``metrics`` maps each run
    (``<config>/<encoder>``, ``model``, ``pipeline``, ``<config>/<llm>``) to its accuracy and
    F1s; ``runs`` holds each run's configuration, validation choices, the paper's numbers and
    the per-emotion table. With ``plots_dir``, a confusion-matrix PNG per run is written there.
    """
    from ..emotion import experiments
    from ..emotion.data import load_emotion_data
    from ..errors import ConfigError
    from .results import make_results

    unknown = [c for c in configs if c not in experiments.ALL_CONFIGS]
    if unknown:
        raise ConfigError("E457", f"Unknown emotion configuration {unknown[0]!r}. Available: "
                          f"{', '.join(experiments.ALL_CONFIGS)}.")
    if split != "test":
        raise ConfigError("E458", f"IDEM emotion evaluation reports on the test split (models "
                          f"select on a validation split carved from train). Got {split!r}.")
    train = load_emotion_data("train", data_dir)
    test = load_emotion_data(split, data_dir)
    gold_all = experiments.gold_ids(test.examples)
    runs = []
    memo = experiments.ProbabilityMemo()  # the model and pipeline rows share model predictions
    for config in configs:
        if config in experiments.FROZEN_CONFIGS:
            outcomes = [(f"{config}/{encoder}", experiments.run_frozen(
                config, encoder, train, test, seed=seed, progress=progress))
                for encoder in encoders]
        elif config in experiments.LLM_CONFIGS:
            if llm is None:
                runs.append({"name": config, "status": "not run",
                             "reason": "needs an LLM backend: pass --llm BACKEND:MODEL",
                             "reference": reference_for(config)})
                continue
            outcomes = [(f"{config}/{llm}", experiments.run_llm(
                config, test, train.definitions, llm, base_url=llm_base_url, limit=llm_limit,
                progress=progress))]
        else:
            outcomes = [(config, experiments.run_model(
                train, test, model=model, seed=seed, progress=progress, memo=memo,
                idioms_from="finder" if config == "pipeline" else "gold"))]
        for name, outcome in outcomes:
            predicted = outcome.pop("predicted")
            gold = gold_all[:len(predicted)]
            run = {"name": name, "status": "ok", **outcome,
                   "metrics": emotion_scores(gold, predicted),
                   "reference": reference_for(config),
                   "per_emotion": per_emotion_table(gold, predicted)}
            if plots_dir is not None:
                run["confusion_png"] = str(plot_confusion(
                    confusion_matrix(gold, predicted, max(len(EMOTIONS), int(predicted.max(
                        initial=0)) + 1))[:len(EMOTIONS), :len(EMOTIONS)],
                    plots_dir, name))
            runs.append(run)
    metrics = {run["name"]: {k: run["metrics"][k] for k in ("accuracy", "weighted_f1",
                                                            "macro_f1")}
               for run in runs if run["status"] == "ok"}
    return make_results(
        TASK, test, split,
        {"configs": list(configs), "encoders": list(encoders), "model": model, "llm": llm},
        metrics, len(test), seed,
        extra={"runs": runs, "reference": {c: reference_for(c) for c in configs},
               "skipped_rows": [s.message() for s in train.skipped + test.skipped]})


def plot_confusion(matrix: np.ndarray, directory, name: str):
    """Write ``confusion-<name>.png`` (rows: gold, columns: predicted, row-normalised) into
    ``directory``; needs matplotlib (``pip install 'idiomkit[report]'``)."""
    import re
    from pathlib import Path

    from ..errors import MissingDependencyError

    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise MissingDependencyError("E507", "Confusion-matrix plots need matplotlib: pip "
                                     "install 'idiomkit[report]'.") from None
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    rows = matrix.sum(1, keepdims=True)
    share = np.divide(matrix, rows, out=np.zeros(matrix.shape, dtype=float), where=rows > 0)
    fig, ax = plt.subplots(figsize=(11, 10))
    image = ax.imshow(share, cmap="Blues", vmin=0, vmax=1)
    ticks = range(len(EMOTIONS))
    ax.set_xticks(ticks, EMOTIONS, rotation=90, fontsize=7)
    ax.set_yticks(ticks, [f"{e} ({int(n)})" for e, n in zip(EMOTIONS, rows[:, 0])], fontsize=7)
    ax.set_xlabel("predicted")
    ax.set_ylabel("gold (support)")
    ax.set_title(f"IDEM emotion confusion matrix: {name} (row-normalised)")
    fig.colorbar(image, ax=ax, fraction=0.03)
    fig.tight_layout()
    path = directory / f"confusion-{re.sub(r'[^A-Za-z0-9._+-]+', '_', name)}.png"
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def markdown_table(results: dict) -> str:
    """Table 3 beside the paper: one row per run, then the paper's rows; percentages."""
    lines = ["| run | method | accuracy | weighted F1 | macro F1 | paper (accuracy / F1) |",
             "|---|---|---|---|---|---|"]
    for run in results.get("runs", []):
        paper = "; ".join(f"{who} {100 * ref['accuracy']:.2f} / {100 * ref['weighted_f1']:.2f}"
                          for who, ref in run.get("reference", {}).items())
        if run["status"] != "ok":
            lines.append(f"| {run['name']} | {run['reason']} | – | – | – | {paper} |")
            continue
        m = run["metrics"]
        method = run["configuration"].get("method", "")
        lines.append(f"| {run['name']} | {method} | {100 * m['accuracy']:.2f} | "
                     f"{100 * m['weighted_f1']:.2f} | {100 * m['macro_f1']:.2f} | {paper} |")
        if "without_prior" in run:
            w = run["without_prior"]
            plain = run["configuration"].get("method_without_prior", method.split(" + ")[0])
            lines.append(f"| {run['name']} (no sibling prior) | {plain} | "
                         f"{100 * w['accuracy']:.2f} | {100 * w['weighted_f1']:.2f} | "
                         f"{100 * w['macro_f1']:.2f} | |")
        if "zero_shot" in run:
            z = run["zero_shot"]
            lines.append(f"| {run['name']} (zero-shot scoring) | argmax of label scores | "
                         f"{100 * z['accuracy']:.2f} | {100 * z['weighted_f1']:.2f} | "
                         f"{100 * z['macro_f1']:.2f} | |")
    return "\n".join(lines)


def per_emotion_markdown(run: dict) -> str:
    """The per-emotion table of one run (precision, recall, F1, support)."""
    lines = [f"Per emotion: {run['name']}", "",
             "| emotion | precision | recall | F1 | support |", "|---|---|---|---|---|"]
    for row in run["per_emotion"]:
        lines.append(f"| {row['emotion']} | {100 * row['precision']:.1f} | "
                     f"{100 * row['recall']:.1f} | {100 * row['f1']:.1f} | {row['support']} |")
    return "\n".join(lines)
