"""IDEM-format training files with label checking, definitions joined on ``idiom_id``, and the
seeded validation split that model selection uses.

A row whose emotion is not one of the 36 is reported (file, line, label, and the closest valid
label as a hint) and skipped, as the IDEM authors discarded such rows; it is never mapped.
"""

from __future__ import annotations

import csv
import logging
import random
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..datasets.base import Example
from ..datasets.paths import checksum, dataset_file, resolve_data_dir
from ..errors import ConfigError, DataError
from .labels import closest_emotion, is_emotion

log = logging.getLogger(__name__)

_REQUIRED = ("sentence", "emotion")
_SPLIT_FILES = {"train": "idem_train.csv", "test": "idem_test.csv"}


@dataclass(frozen=True)
class SkippedRow:
    """A row left out of a training file, and why."""

    path: str
    line: int
    label: str
    hint: str | None = None

    def message(self) -> str:
        hint = f" (did you mean {self.hint!r}? labels are never mapped)" if self.hint else ""
        return (f"{self.path}, line {self.line}: emotion {self.label!r} is not one of the 36 "
                f"IDEM emotions; row skipped{hint}.")


@dataclass
class EmotionData:
    """Examples of one split with their idiom definitions, and what was skipped."""

    split: str
    examples: list[Example]
    definitions: dict[str, str]
    files: list[Path]
    checksum: str
    skipped: list[SkippedRow] = field(default_factory=list)

    @property
    def name(self) -> str:
        return "idem"

    def __len__(self) -> int:
        return len(self.examples)

    def definition(self, example: Example) -> str | None:
        return self.definitions.get(example.idiom_id or "")


def read_emotion_csv(path: str | Path, split: str = "train"
                     ) -> tuple[list[Example], list[SkippedRow]]:
    """Read an IDEM-format CSV (``sentence``, ``emotion``; optional ``idiom``, ``idiom_id`` and
    an unnamed index column). Rows with a label outside the 36 are skipped and returned as
    :class:`SkippedRow` (also logged as warnings)."""
    path = Path(path)
    examples: list[Example] = []
    skipped: list[SkippedRow] = []
    with open(path, encoding="utf-8-sig", newline="") as handle:
        reader = csv.DictReader(handle)
        header = reader.fieldnames or []
        missing = [column for column in _REQUIRED if column not in header]
        if missing:
            raise DataError(
                "E340", f"Emotion training file '{path}' has no column "
                f"{', '.join(repr(c) for c in missing)} (header: {header}). Give a CSV with the "
                "IDEM header ',idiom_id,idiom,sentence,emotion' (idiom columns optional).",
            )
        for row_no, row in enumerate(reader):
            text = (row.get("sentence") or "").strip()
            label = (row.get("emotion") or "").strip()
            if not text:
                raise DataError(
                    "E341", f"Emotion training file '{path}', line {reader.line_num}: the "
                    "sentence is empty. Fill it in or delete the row.",
                )
            if not is_emotion(label):
                skip = SkippedRow(str(path), reader.line_num, label, closest_emotion(label))
                log.warning(skip.message())
                skipped.append(skip)
                continue
            index = (row.get("") or "").strip() or str(row_no)
            idiom_id = (row.get("idiom_id") or "").strip()
            examples.append(Example(
                id=f"{split}-{index}", text=text, idiom=(row.get("idiom") or "").strip() or None,
                idiom_id=_normalise_id(idiom_id) if idiom_id else None, label=label,
                meta={"split": split, "line": reader.line_num},
            ))
    return examples, skipped


def _normalise_id(value: str) -> str:
    # idiom_lexicon.csv stores ids as floats ("12.0"); the sentence files as ints ("12")
    try:
        return str(int(float(value)))
    except ValueError:
        return value


def read_definitions(path: str | Path) -> dict[str, str]:
    """``idiom_id -> definition`` from IDEM's ``idiom_lexicon.csv`` (rows without an id or a
    definition are left out)."""
    path = Path(path)
    with open(path, encoding="utf-8-sig", newline="") as handle:
        reader = csv.DictReader(handle)
        if not {"idiom_id", "definition"} <= set(reader.fieldnames or []):
            raise DataError(
                "E342", f"'{path}' has no 'idiom_id' and 'definition' columns; expected IDEM's "
                "idiom_lexicon.csv (see idem/SOURCE.md).",
            )
        return {
            _normalise_id(row["idiom_id"]): row["definition"].strip()
            for row in reader
            if (row["idiom_id"] or "").strip() and (row["definition"] or "").strip()
        }


def load_emotion_data(split: str, data_dir: str | Path | None = None,
                      train_file: str | Path | None = None) -> EmotionData:
    """IDEM ``train``/``test`` (or ``train_file`` instead of the train split) with definitions."""
    if split not in _SPLIT_FILES:
        raise ConfigError(
            "E450", f"Unknown IDEM split {split!r} for emotion data. Available: train, test."
        )
    root = resolve_data_dir(data_dir)
    lexicon_path = dataset_file(root, "idem", "idiom_lexicon.csv")
    if train_file is not None and split == "train":
        path = Path(train_file)
        if not path.is_file():
            raise DataError("E343", f"Training file '{path}' does not exist.")
    else:
        path = dataset_file(root, "idem", _SPLIT_FILES[split])
    examples, skipped = read_emotion_csv(path, split)
    return EmotionData(split, examples, read_definitions(lexicon_path), [path, lexicon_path],
                       checksum([path, lexicon_path]), skipped)


def carve_validation(examples: Sequence[Example], fraction: float = 0.1, seed: int = 0
                     ) -> tuple[list[Example], list[Example]]:
    """Split training examples into (fit, validation) the way IDEM's test split looks: the
    validation set holds one sentence each of randomly chosen idioms that have at least two
    sentences, so that every validation idiom still occurs in the fit part.

    >>> rows = [Example(str(i), "s", idiom_id=str(i // 4), label="Pride") for i in range(40)]
    >>> fit, val = carve_validation(rows, fraction=0.1, seed=0)
    >>> len(fit), len(val), len({e.idiom_id for e in val})
    (36, 4, 4)
    """
    if not 0 < fraction < 1:
        raise ConfigError("E451", f"The validation fraction must be in (0, 1). Got {fraction}.")
    by_idiom: dict[str, list[int]] = defaultdict(list)
    for i, example in enumerate(examples):
        by_idiom[example.idiom_id or example.idiom or example.id].append(i)
    rng = random.Random(seed)
    eligible = sorted(key for key, rows in by_idiom.items() if len(rows) >= 2)
    rng.shuffle(eligible)
    wanted = round(fraction * len(examples))
    held = {rng.choice(by_idiom[key]) for key in eligible[:wanted]}
    fit = [e for i, e in enumerate(examples) if i not in held]
    val = [e for i, e in enumerate(examples) if i in held]
    return fit, val
