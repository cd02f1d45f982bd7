"""``idiomkit audit DATASET`` (without ``--checks-only``): the leakage checks, then the three
input settings trained on the original split (every :data:`~idiomkit.audit.plans.PLANS`
setting) and on random and lexical 5-fold CV; one results object (task ``audit-training``).

The CV pool is the largest setting's training and evaluation splits together (for AStitch, as
the paper: the few-shot version's instances).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np

from ..datasets import Example, checksum, get_reader, load_dataset, resolve_data_dir
from ..evaluate.results import make_results
from .checks import NEAR_DUPLICATE_THRESHOLD
from .inputs import read_audit_input
from .leakage import check_splits
from .plans import Setting, plan_for
from .training import QUICK_TRIALS, SETTINGS, Auditor, Partition, usable, validate_modes

TASK = "audit-training"
#: share of train carved out as dev (seeded) when a setting evaluates on no 'dev' split
DEV_SHARE = 0.1


def _pool(splits: Mapping[str, Sequence[Example]]) -> tuple[list[Example], dict[str, list[int]],
                                                           dict[str, Any]]:
    pool: list[Example] = []
    where: dict[str, list[int]] = {}
    excluded: dict[str, Any] = {}
    for split, examples in splits.items():
        kept, left = usable(examples)
        where[split] = list(range(len(pool), len(pool) + len(kept)))
        pool.extend(kept)
        excluded[split] = {"n": len(left), "ids": left[:20]}
    return pool, where, excluded


def _partition(setting: Setting, where: dict[str, list[int]], seed: int) -> Partition:
    train = [i for split in setting.train for i in where[split]]
    tests = [s for s in setting.evaluate if s != "dev"]
    if "dev" in setting.evaluate:
        dev = where["dev"]
    else:
        rng = np.random.default_rng(seed)
        order = rng.permutation(len(train))
        cut = max(1, int(round(DEV_SHARE * len(train))))
        dev = sorted(train[i] for i in order[:cut])
        train = sorted(train[i] for i in order[cut:])
    tests = tests or ["dev"]
    return Partition(setting.name, train, dev, {s: where[s] for s in tests})


def audit_splits(
    splits: Mapping[str, Sequence[Example]],
    settings: Sequence[Setting],
    *,
    backend: str = "quick",
    trials: int = QUICK_TRIALS,
    seed: int = 0,
    cv: Sequence[str] = ("random", "lexical"),
    model: str = "minilm",
    threads: int = 2,
    cache: bool = True,
    progress: bool = True,
    finetune_layers: int | None = None,
    threshold: float = NEAR_DUPLICATE_THRESHOLD,
    inputs: Sequence[str] = SETTINGS,
) -> dict[str, Any]:
    """The metrics object of a training audit of ``splits`` under ``settings``, training the
    ``inputs`` (Default, Only-expression, Masked-expression, or a subset)."""
    modes = validate_modes(cv)
    started = time.perf_counter()
    metrics: dict[str, Any] = {"checks": check_splits(splits, settings, threshold)}
    checks_seconds = time.perf_counter() - started
    pool, where, excluded = _pool(splits)
    auditor = Auditor(pool, backend=backend, trials=trials, seed=seed, model=model,
                      threads=threads, cache=cache, progress=progress,
                      finetune_layers=finetune_layers, inputs=inputs)
    seconds: dict[str, float] = {"checks": round(checks_seconds, 2)}
    metrics["original"] = {}
    for setting in settings:
        t0 = time.perf_counter()
        run = auditor.run(_partition(setting, where, seed))
        run["train"] = list(setting.train)
        metrics["original"][setting.name] = run
        seconds[f"original {setting.name}"] = round(time.perf_counter() - t0, 2)
    largest = max(settings, key=lambda s: sum(len(where[x]) for x in s.train))
    indices = sorted({i for s in (*largest.train, *largest.evaluate) for i in where[s]})
    metrics["cv"] = {}
    for mode in modes:
        t0 = time.perf_counter()
        metrics["cv"][mode] = auditor.cross_validate(mode, indices)
        metrics["cv"][mode]["pool"] = list(dict.fromkeys((*largest.train, *largest.evaluate)))
        seconds[f"cv {mode}"] = round(time.perf_counter() - t0, 2)
    metrics["excluded"] = excluded
    seconds["total"] = round(time.perf_counter() - started, 2)
    metrics["seconds"] = seconds
    return metrics


def _configuration(settings: Sequence[Setting], **options: Any) -> dict[str, Any]:
    from .training import FEATURE_VERSION

    backend = options.get("backend", "quick")
    return {
        "settings": [{"name": s.name, "train": list(s.train), "evaluate": list(s.evaluate)}
                     for s in settings],
        "inputs": list(SETTINGS),
        "marking": "no added tokens: features = mean of all token states + mean of the "
        "expression's token states (masked: the mask token's state); quick Default also has "
        "the expression encoded alone",
        "classifier": "frozen encoder features + standardised logistic regression (C, class "
        "weight searched)" if backend == "quick" else
        "LoRA fine-tuning, format 'span' (lr, batch size, epochs, seed searched)",
        "search": "Optuna TPE, seeded, dev macro-F1",
        "feature_version": FEATURE_VERSION,
        "cv": "5 folds, 70/10/20, seeded",
        **options,
    }


def audit_training_dataset(name: str, data_dir: str | Path | None = None, **options: Any
                           ) -> dict[str, Any]:
    """Results object of the training audit of built-in dataset ``name``."""
    settings = plan_for(name, get_reader(name).splits)
    needed = list(dict.fromkeys(s for st in settings for s in (*st.train, *st.evaluate)))
    datasets = {split: load_dataset(name, split, data_dir) for split in needed}
    files = list(dict.fromkeys(path for d in datasets.values() for path in d.files))
    metrics = audit_splits({s: d.examples for s, d in datasets.items()}, settings, **options)
    root = resolve_data_dir(data_dir)
    paths = [str(p.relative_to(root)) if p.is_relative_to(root) else str(p) for p in files]
    source = SimpleNamespace(name=name, files=files, checksum=checksum(files))
    return make_results(TASK, source, "+".join(needed),
                        _configuration(settings, files=paths, **_public(options)), metrics,
                        n=sum(len(d) for d in datasets.values()), seed=options.get("seed", 0))


def audit_training_file(path: str | Path, labels: dict[str, str] | None = None,
                        **options: Any) -> dict[str, Any]:
    """Results object of the training audit of a user CSV/JSONL file (see :mod:`.inputs`)."""
    data = read_audit_input(path, labels)
    evaluate = ("dev", "test") if data.splits["dev"] else ("test",)
    settings = (Setting("default", ("train",), evaluate),)
    metrics = audit_splits(data.splits, settings, **options)
    source = SimpleNamespace(name=Path(path).name, files=[Path(path)],
                             checksum=checksum([Path(path)]))
    configuration = _configuration(
        settings, input=str(path), labels=data.labels,
        split_source="hash 80/10/10 of the sentence" if data.derived_split else "split column",
        **_public(options))
    return make_results(TASK, source, "+".join(("train", *evaluate)), configuration, metrics,
                        n=sum(len(v) for v in data.splits.values()), seed=options.get("seed", 0))


def _public(options: Mapping[str, Any]) -> dict[str, Any]:
    # the defaults of audit_splits, recorded so that a results file says what ran
    recorded = {"backend": "quick", "trials": QUICK_TRIALS, "seed": 0, "model": "minilm",
                "cv": ["random", "lexical"], **options}
    recorded["inputs"] = list(recorded.get("inputs", SETTINGS))
    return {k: v for k, v in recorded.items() if k not in ("progress", "cache")}


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)
