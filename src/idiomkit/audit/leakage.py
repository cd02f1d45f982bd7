"""Run the leakage checks (:mod:`idiomkit.audit.checks`) on a built-in dataset or a user file
and return a results object (:func:`~idiomkit.evaluate.make_results`) with provenance.

The metrics object has three parts: ``balance`` (class balance per split),
``within_split_duplicates`` (sentences repeated inside a split) and ``settings`` (per audit
setting and evaluation split: ``expression_overlap``, ``label_skew``, ``duplicates``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from ..datasets import Example, checksum, get_reader, load_dataset, resolve_data_dir
from ..evaluate.results import make_results
from .checks import (
    NEAR_DUPLICATE_THRESHOLD,
    NUM_PERM,
    SHINGLE,
    class_balance,
    duplicate_contexts,
    duplicates_within,
    expression_overlap,
    label_skew,
)
from .inputs import read_audit_input
from .plans import PLANS, Setting, plan_for

TASK = "audit-checks"


def check_splits(
    splits: Mapping[str, Sequence[Example]],
    settings: Sequence[Setting],
    threshold: float = NEAR_DUPLICATE_THRESHOLD,
) -> dict[str, Any]:
    """The checks for every setting of ``settings`` over the examples in ``splits``."""
    used = list(dict.fromkeys(s for setting in settings for s in (*setting.train,
                                                                   *setting.evaluate)))
    metrics: dict[str, Any] = {
        "balance": {split: class_balance(splits[split]) for split in used},
        "within_split_duplicates": {split: duplicates_within(splits[split]) for split in used},
        "settings": {},
    }
    for setting in settings:
        train = [e for split in setting.train for e in splits[split]]
        per_split = {}
        for split in setting.evaluate:
            test = splits[split]
            per_split[split] = {
                "expression_overlap": expression_overlap(train, test),
                "label_skew": label_skew(train, test),
                "duplicates": duplicate_contexts(train, test, threshold),
            }
        metrics["settings"][setting.name] = {
            "train": list(setting.train),
            "train_n": len(train),
            "evaluate": per_split,
        }
    return metrics


def _version(package: str) -> str | None:
    try:
        return version(package)
    except PackageNotFoundError:
        return None


def _configuration(settings: Sequence[Setting], threshold: float, **extra: Any) -> dict:
    return {
        "settings": [
            {"name": s.name, "train": list(s.train), "evaluate": list(s.evaluate)}
            for s in settings
        ],
        "near_duplicate_threshold": threshold,
        "near_duplicate_shingle": f"character {SHINGLE}-grams of the normalised sentence",
        "minhash_num_perm": NUM_PERM,
        "datasketch": _version("datasketch"),
        **extra,
    }


def audit_dataset(
    name: str,
    data_dir: str | Path | None = None,
    threshold: float = NEAR_DUPLICATE_THRESHOLD,
) -> dict[str, Any]:
    """Results object of the checks on built-in dataset ``name`` (its :data:`PLANS` settings)."""
    settings = plan_for(name, get_reader(name).splits)
    needed = list(dict.fromkeys(s for st in settings for s in (*st.train, *st.evaluate)))
    datasets = {split: load_dataset(name, split, data_dir) for split in needed}
    files = list(dict.fromkeys(path for d in datasets.values() for path in d.files))
    source = SimpleNamespace(name=name, files=files, checksum=checksum(files))
    splits = {split: d.examples for split, d in datasets.items()}
    metrics = check_splits(splits, settings, threshold)
    root = resolve_data_dir(data_dir)
    paths = [str(p.relative_to(root)) if p.is_relative_to(root) else str(p) for p in files]
    return make_results(
        TASK,
        source,
        "+".join(needed),
        _configuration(settings, threshold, files=paths),
        metrics,
        n=sum(len(d) for d in datasets.values()),
    )


def audit_file(
    path: str | Path,
    labels: dict[str, str] | None = None,
    threshold: float = NEAR_DUPLICATE_THRESHOLD,
) -> dict[str, Any]:
    """Results object of the checks on a user CSV/JSONL file (see :mod:`.inputs`)."""
    data = read_audit_input(path, labels)
    evaluate = ("dev", "test") if data.splits["dev"] else ("test",)
    settings = (Setting("default", ("train",), evaluate),)
    source = SimpleNamespace(
        name=Path(path).name, files=[Path(path)], checksum=checksum([Path(path)])
    )
    metrics = check_splits(data.splits, settings, threshold)
    configuration = _configuration(
        settings,
        threshold,
        input=str(path),
        split_source="hash 80/10/10 of the sentence" if data.derived_split else "split column",
        labels=data.labels,
    )
    return make_results(
        TASK,
        source,
        "+".join(("train", *evaluate)),
        configuration,
        metrics,
        n=sum(len(v) for v in data.splits.values()),
    )


def builtin_audit_datasets() -> list[str]:
    """The built-in datasets ``idiomkit audit --all`` checks, in report order."""
    return list(PLANS)
