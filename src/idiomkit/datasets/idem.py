"""IDEM (Prochnow et al., LREC-COLING 2024): idiom sentences with one of 36 emotions.

Files (see ``idem/SOURCE.md`` in the data directory): ``idem/idem_train.csv`` (8,729 rows) and
``idem/idem_test.csv`` (956 rows), header ``,idiom_id,idiom,sentence,emotion``; the unnamed
first column is the row index in the upstream file. Each :class:`Example` has the sentence as
``text``, the idiom's dictionary form as ``idiom``, IDEM's ``idiom_id`` (a string) and the
emotion as ``label``; ``meta`` holds the split of origin and the upstream index.

Example ids are ``"<split>-<index>"`` because the train and test indexes overlap.
"""

from __future__ import annotations

import csv
from collections.abc import Iterator, Sequence
from pathlib import Path

from ..errors import DataError
from .base import Example, register_dataset

#: columns every IDEM row must have (the unnamed index column is optional)
REQUIRED_COLUMNS = ("idiom_id", "idiom", "sentence", "emotion")
_FILES = {"train": ("idem", "idem_train.csv"), "test": ("idem", "idem_test.csv")}


class IdemReader:
    """Reader for the IDEM train/test CSV files; ``train+test`` reads both, train first."""

    name = "idem"
    splits = ("train", "test", "train+test")

    def files(self, split: str) -> list[tuple[str, ...]]:
        return [_FILES[part] for part in split.split("+")]

    def read(self, paths: Sequence[Path], split: str) -> Iterator[Example]:
        for part, path in zip(split.split("+"), paths, strict=True):
            yield from read_idem_csv(path, part)


def read_idem_csv(path: Path, split: str) -> Iterator[Example]:
    """Yield the examples of one IDEM CSV file, raising :class:`DataError` on a malformed row."""
    # utf-8-sig: a BOM written by a spreadsheet program must not rename the first column
    with open(path, encoding="utf-8-sig", newline="") as handle:
        reader = csv.DictReader(handle)
        header = reader.fieldnames or []
        missing = [column for column in REQUIRED_COLUMNS if column not in header]
        if missing:
            raise DataError(
                "E304",
                f"IDEM file '{path}' has no column {', '.join(repr(c) for c in missing)} "
                f"(header: {', '.join(repr(c) for c in header) or 'empty'}). Expected the header "
                "',idiom_id,idiom,sentence,emotion' of the IDEM release (see idem/SOURCE.md).",
            )
        index_column = "" if "" in header else None
        for row_no, row in enumerate(reader):
            for column in REQUIRED_COLUMNS:
                value = row.get(column)
                if value is None or not value.strip():
                    raise DataError(
                        "E305",
                        f"IDEM file '{path}', line {reader.line_num}: the row has no value in "
                        f"column '{column}'. Restore the file from the IDEM release "
                        "(see idem/SOURCE.md).",
                    )
            index = row.get(index_column) if index_column is not None else None
            index = index.strip() if index and index.strip() else str(row_no)
            yield Example(
                id=f"{split}-{index}",
                text=row["sentence"],
                idiom=row["idiom"].strip(),
                idiom_id=row["idiom_id"].strip(),
                label=row["emotion"].strip(),
                meta={"split": split, "index": int(index) if index.isdigit() else index},
            )


register_dataset(IdemReader())
