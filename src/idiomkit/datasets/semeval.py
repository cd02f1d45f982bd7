"""SemEval-2022 Task 2, Subtask A (Tayyar Madabushi et al., 2022): idiomaticity detection in
English, Portuguese and Galician, as one dataset ``semeval-a`` with ``meta["language"]``.

Splits (files under ``semeval2022_task2/SubTaskA/``, see its ``SOURCE.md``):

========================  =====================================  ======  =====================
split                     file                                   rows    gold
========================  =====================================  ======  =====================
``train_zero_shot``       ``Data/train_zero_shot.csv``           4,491   in the file
``train_one_shot``        ``Data/train_one_shot.csv``            140     in the file
``dev``                   ``Data/dev.csv``                       739     ``Data/dev_gold.csv``
``eval``                  ``Data/eval.csv``                      762     derived (below)
``train_one_shot_test``   ``TestData/train_one_shot.csv``        209     in the file
``test``                  ``TestData/test.csv``                  2,342   none (``label=None``)
========================  =====================================  ======  =====================

``train_one_shot_test`` holds the one-shot training examples for the test-phase MWEs (EN, PT
and GL). The ``eval`` gold comes from ``Data/DERIVED_eval_gold_from_AStitch_test.csv``, a join
of ``eval.csv`` with AStitch's public test labels made by whoever prepared the data folder (not
an upstream file). The test gold was never published.

Example ids are the ``DataID`` for training rows and ``"<split>-<ID>"`` otherwise.
Labels as in AStitch: **0 = idiomatic, 1 = not idiomatic**; ``label`` is
``"idiomatic"``/``"literal"`` and ``meta["raw_label"]`` keeps the digit. ``text`` is the Target
sentence, ``idiom`` the MWE; ``meta`` has ``previous``, ``next``, ``language``, ``span`` (where
found), ``source``, and what a submission needs: ``official_id`` (the ``ID`` column of the
submission format ``ID,Language,Setting,Label``; training files have only a ``DataID``, which
stands in), ``data_id`` where known, and ``setting`` (``zero_shot``/``one_shot``) for training
rows. A submission gives one row per ``official_id`` and setting.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

from ..errors import DataError
from ._common import IDIOMATIC, LITERAL, binary_label, read_csv_rows, span_meta
from .base import Example, register_dataset

LABELS = {"0": IDIOMATIC, "1": LITERAL}
_ROOT = ("semeval2022_task2", "SubTaskA")
#: split -> (examples file, gold file or None)
_FILES: dict[str, tuple[tuple[str, ...], tuple[str, ...] | None]] = {
    "train_zero_shot": ((*_ROOT, "Data", "train_zero_shot.csv"), None),
    "train_one_shot": ((*_ROOT, "Data", "train_one_shot.csv"), None),
    "dev": ((*_ROOT, "Data", "dev.csv"), (*_ROOT, "Data", "dev_gold.csv")),
    "eval": (
        (*_ROOT, "Data", "eval.csv"),
        (*_ROOT, "Data", "DERIVED_eval_gold_from_AStitch_test.csv"),
    ),
    "train_one_shot_test": ((*_ROOT, "TestData", "train_one_shot.csv"), None),
    "test": ((*_ROOT, "TestData", "test.csv"), None),
}
_TRAIN_COLUMNS = ("DataID", "Language", "MWE", "Setting", "Previous", "Target", "Next", "Label")
_EVAL_COLUMNS = ("ID", "Language", "MWE", "Previous", "Target", "Next")
_GOLD_COLUMNS = ("ID", "Language", "Label")
_CONTEXT = ("Previous", "Next")
_CORPUS = "SemEval-2022 Task 2"


class SemEvalSubtaskAReader:
    """Reader for SemEval-2022 Task 2 Subtask A (all languages in one dataset)."""

    name = "semeval-a"
    splits = tuple(_FILES)

    def files(self, split: str) -> list[tuple[str, ...]]:
        data, gold = _FILES[split]
        return [data] if gold is None else [data, gold]

    def read(self, paths: Sequence[Path], split: str) -> Iterator[Example]:
        training = split.startswith("train")
        columns = _TRAIN_COLUMNS if training else _EVAL_COLUMNS
        gold = read_gold(paths[1]) if len(paths) > 1 else {}
        for line, row in read_csv_rows(paths[0], columns, _CORPUS, allow_empty=_CONTEXT):
            meta: dict = {}
            if training:
                official_id = row["DataID"].strip()
                raw = row["Label"].strip()
                meta.update(data_id=official_id, setting=row["Setting"].strip())
            else:
                official_id = row["ID"].strip()
                raw, data_id = gold.pop(official_id, (None, None))
                if len(paths) > 1 and raw is None:
                    raise DataError(
                        "E316",
                        f"{_CORPUS} file '{paths[1]}' has no gold label for ID {official_id} "
                        f"('{paths[0]}', line {line}). Restore the gold file (see "
                        "semeval2022_task2/SOURCE.md).",
                    )
                if data_id:
                    meta["data_id"] = data_id
            target, mwe = row["Target"], row["MWE"].strip()
            label = binary_label(raw, LABELS, _CORPUS, paths[0], line) if raw else None
            if raw:
                meta["raw_label"] = raw
            yield Example(
                # training DataIDs already name their split ("train_zero_shot.EN.168.1")
                id=official_id if training else f"{split}-{official_id}",
                text=target,
                idiom=mwe,
                label=label,
                meta={
                    "official_id": official_id,
                    **meta,
                    "previous": row["Previous"].strip(),
                    "next": row["Next"].strip(),
                    **span_meta(target, mwe),
                    "language": row["Language"].strip(),
                    "source": self.name,
                    "split": split,
                },
            )
        if gold:
            extra = ", ".join(sorted(gold)[:5])
            raise DataError(
                "E316",
                f"{_CORPUS} gold file '{paths[1]}' has IDs that '{paths[0]}' lacks ({extra}). "
                "Restore both files (see semeval2022_task2/SOURCE.md).",
            )


def read_gold(path: Path) -> dict[str, tuple[str, str | None]]:
    """``ID -> (label digit, DataID or None)`` from a gold file."""
    gold: dict[str, tuple[str, str | None]] = {}
    for _, row in read_csv_rows(path, _GOLD_COLUMNS, _CORPUS):
        data_id = row.get("DataID")
        gold[row["ID"].strip()] = (row["Label"].strip(), data_id.strip() if data_id else None)
    return gold


register_dataset(SemEvalSubtaskAReader())
