"""AStitchInLanguageModels (Tayyar Madabushi et al., Findings of EMNLP 2021), Task 1.

Four datasets, English and Portuguese (see ``astitch/SOURCE.md`` in the data directory), each
with the splits ``train_zero_shot``, ``train_one_shot``, ``train_few_shot``, ``dev``, ``test``:

``astitch`` / ``astitch-pt`` (Subtask A)
    Is the noun compound (``idiom``, e.g. "high life") idiomatic or literal in the target
    sentence (``text``)? The files code **0 = idiomatic, 1 = not idiomatic**; ``label`` is
    ``"idiomatic"``/``"literal"`` and ``meta["raw_label"]`` keeps the digit. Proper-noun and
    meta uses count as not idiomatic, as upstream. Previous and next sentences
    (``meta["previous"]``, ``meta["next"]``) are recovered by locating the target sentence of
    the ``ContextExcluded`` file inside the joined sentence of the ``ContextIncluded`` file
    (``previous + " " + target + " " + next``, empty parts left out). Where the target occurs
    more than once, the occurrence with text on both sides wins, then the first; this agrees
    with SemEval-2022's separate Previous/Next fields on all but 2 of the 6,132 rows both have.
``astitch-1b`` / ``astitch-1b-pt`` (Subtask B, as a pair task)
    Each example of Subtask A expanded into one row per candidate meaning: ``text`` = the
    target sentence, ``meta["paraphrase"]`` = the candidate (the literal meaning, each
    non-literal meaning, "Proper Noun", "Meta Usage"), ``label`` = ``"1"`` for the gold meaning
    and ``"0"`` otherwise, ``meta["group"]`` = an id shared by the rows of one example,
    ``meta["sense"]`` = what kind of meaning the candidate is (``"literal"``,
    ``"non-literal"``, ``"proper-noun"``, ``"meta-usage"``), from the release's sense inventory
    (``Extended_Noun_Compound_Senses_Dataset``: each compound's literal meaning). The
    rows come from the ``ContextExcluded`` files for every split, because upstream's
    ``SubTaskB/EN/ContextIncluded/train_zero_shot.csv`` is missing (a large-file omission);
    the ``ContextIncluded`` files hold the same rows with the context joined in, and the
    context (``previous``/``next``) and the compound (``idiom``) are taken from the Subtask A
    files of the same split, matched on the target sentence. A group is a run of rows with the same
    target sentence (target sentences are unique within a split).

Every example has ``meta["language"]`` (``"EN"``/``"PT"``), ``meta["source"]`` (the dataset
name) and, where found, ``meta["span"]``: the compound's character offsets in ``text``.
Example ids are ``"<split>-<row>"`` (Subtask A, row 0-based) and ``"<split>-<group>-<k>"``
(Subtask B).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

from ..errors import DataError
from ._common import IDIOMATIC, LITERAL, binary_label, read_csv_rows, span_meta
from .base import Example, register_dataset

SPLITS = ("train_zero_shot", "train_one_shot", "train_few_shot", "dev", "test")
#: Subtask A's label digits (0 = idiomatic, 1 = not idiomatic)
LABELS = {"0": IDIOMATIC, "1": LITERAL}
COLUMNS = ("label", "sentence1", "sentence2")
_TASK1 = ("astitch", "Dataset", "Task1")
_SENSES = ("astitch", "Dataset", "Extended_Noun_Compound_Senses_Dataset")
#: the candidates of Subtask B that are no paraphrase, by their sense kind
_NAMED_SENSES = {"Proper Noun": "proper-noun", "Meta Usage": "meta-usage"}


def _subtask_a_files(language: str, split: str) -> list[tuple[str, ...]]:
    folder = (*_TASK1, "SubTaskA", language)
    return [
        (*folder, "ContextIncluded_IdiomIncluded", f"{split}.csv"),
        (*folder, "ContextExcluded_IdiomIncluded", f"{split}.csv"),
    ]


class AStitchReader:
    """Subtask A: idiomatic vs literal use of a noun compound, with its context."""

    splits = SPLITS

    def __init__(self, name: str, language: str) -> None:
        self.name = name
        self.language = language

    def files(self, split: str) -> list[tuple[str, ...]]:
        return _subtask_a_files(self.language, split)

    def read(self, paths: Sequence[Path], split: str) -> Iterator[Example]:
        for row, sample in enumerate(read_subtask_a(paths[0], paths[1], self.language)):
            yield Example(
                id=f"{split}-{row}",
                text=sample["target"],
                idiom=sample["mwe"],
                label=binary_label(sample["label"], LABELS, "AStitch", paths[1], sample["line"]),
                meta={
                    "raw_label": sample["label"],
                    "previous": sample["previous"],
                    "next": sample["next"],
                    **span_meta(sample["target"], sample["mwe"]),
                    "language": self.language,
                    "source": self.name,
                    "split": split,
                },
            )


def read_subtask_a(included: Path, excluded: Path, language: str) -> Iterator[dict]:
    """Rows of a Subtask A split with the context cut into previous/target/next.

    The two files must hold the same rows in the same order (DataError E315 otherwise).
    """
    with_context = list(read_csv_rows(included, COLUMNS, "AStitch"))
    targets = list(read_csv_rows(excluded, COLUMNS, "AStitch"))
    if len(with_context) != len(targets):
        raise DataError(
            "E315",
            f"AStitch files '{included}' ({len(with_context)} rows) and '{excluded}' "
            f"({len(targets)} rows) should hold the same rows. Restore both from the release "
            "(see astitch/SOURCE.md).",
        )
    for (_, joined), (line, target) in zip(with_context, targets):
        if (joined["label"], joined["sentence2"]) != (target["label"], target["sentence2"]):
            raise DataError(
                "E315",
                f"AStitch file '{excluded}', line {line}: the row's label or MWE differs from "
                f"the same row of '{included}'. Restore both from the release "
                "(see astitch/SOURCE.md).",
            )
        context = split_context(joined["sentence1"], target["sentence1"])
        if context is None:
            raise DataError(
                "E315",
                f"AStitch file '{excluded}', line {line}: the target sentence does not occur "
                f"in the same row of '{included}'. Restore both from the release "
                "(see astitch/SOURCE.md).",
            )
        yield {
            "line": line,
            "label": target["label"].strip(),
            "mwe": target["sentence2"].strip(),
            "target": target["sentence1"],
            "previous": context[0],
            "next": context[1],
            "language": language,
        }


def split_context(joined: str, target: str) -> tuple[str, str] | None:
    """``(previous, next)`` around ``target`` in ``joined``, or ``None`` if it is not there.

    >>> split_context("A b. Target here. C d.", "Target here.")
    ('A b.', 'C d.')
    >>> split_context("T. T. N.", "T.")  # a repeated sentence: the one with text on both sides
    ('T.', 'N.')
    """
    size = len(target)
    starts = []
    start = joined.find(target)
    while start != -1 and size:
        end = start + size
        if (start == 0 or joined[start - 1].isspace()) and (
            end == len(joined) or joined[end].isspace()
        ):
            starts.append(start)
        start = joined.find(target, start + 1)
    if not starts:
        return None
    inner = [s for s in starts if 0 < s and s + size < len(joined)]
    start = (inner or starts)[0]
    return joined[:start].strip(), joined[start + size :].strip()


class AStitchSubtaskBReader:
    """Subtask B as a pair task: target sentence + candidate meaning -> 1 (gold) / 0."""

    splits = SPLITS

    def __init__(self, name: str, language: str) -> None:
        self.name = name
        self.language = language

    def files(self, split: str) -> list[tuple[str, ...]]:
        pairs = (*_TASK1, "SubTaskB", self.language, "ContextExcluded", f"{split}.csv")
        senses = (*_SENSES, f"{self.language}_Extended_Noun_Compound_Senses_Dataset.csv")
        return [pairs, *_subtask_a_files(self.language, split), senses]

    def read(self, paths: Sequence[Path], split: str) -> Iterator[Example]:
        by_target = {
            sample["target"]: sample
            for sample in read_subtask_a(paths[1], paths[2], self.language)
        }
        literal = literal_meanings(paths[3])
        # a group is a run of rows with the same target sentence (targets are unique per file;
        # the candidates' order varies, so "Meta Usage" does not always close a group)
        group, k, previous_target = -1, 0, None
        for line, row in read_csv_rows(paths[0], COLUMNS, "AStitch"):
            if row["label"].strip() not in ("0", "1"):
                raise DataError(
                    "E312",
                    f"AStitch file '{paths[0]}', line {line}: unknown label {row['label']!r}. "
                    "Expected '0' or '1' (see astitch/SOURCE.md).",
                )
            target = row["sentence1"]
            if target != previous_target:
                group, k = group + 1, 0
            previous_target = target
            sample = by_target.get(target)
            context = {"previous": sample["previous"], "next": sample["next"]} if sample else {}
            mwe = sample["mwe"] if sample else None
            paraphrase = row["sentence2"].strip()
            if paraphrase in _NAMED_SENSES:
                sense = _NAMED_SENSES[paraphrase]
            elif mwe is None or mwe.lower() not in literal:
                sense = None
            else:
                sense = "literal" if paraphrase == literal[mwe.lower()] else "non-literal"
            yield Example(
                id=f"{split}-{group}-{k}",
                text=target,
                idiom=mwe,
                label=row["label"].strip(),
                meta={
                    "paraphrase": paraphrase,
                    "sense": sense,
                    "group": f"{split}-{group}",
                    **context,
                    **span_meta(target, mwe),
                    "language": self.language,
                    "source": self.name,
                    "split": split,
                },
            )
            k += 1


def literal_meanings(path: Path) -> dict[str, str]:
    """Each compound's literal meaning (lower-cased compound -> meaning) from the sense
    inventory, ``Extended_Noun_Compound_Senses_Dataset`` (one row per compound)."""
    columns = ("Multiword Expression", "Literal Meaning")
    return {row[columns[0]].strip().lower(): row[columns[1]].strip()
            for _, row in read_csv_rows(path, columns, "AStitch sense inventory")}


register_dataset(AStitchReader("astitch", "EN"))
register_dataset(AStitchReader("astitch-pt", "PT"))
register_dataset(AStitchSubtaskBReader("astitch-1b", "EN"))
register_dataset(AStitchSubtaskBReader("astitch-1b-pt", "PT"))
