"""EPIE (Saxena & Paul, TSD 2020) and Labelled EPIE (TSD 2021): English sentences from the BNC,
each with one possible idiomatic expression (PIE) tagged token by token.

Two datasets (files under ``epie/``, see its ``SOURCE.md``):

``epie-formal``
    ``Formal_Idioms_Corpus/``: 3,136 sentences of 358 idioms whose form varies ("keep [pron]
    eye on"), labelled in Labelled EPIE: **1 = idiomatic (2,761), 0 = literal (375)**.
``epie-static``
    ``Static_Idioms_Corpus/``: 21,891 sentences of 359 fixed idioms. **The corpus has no sense
    labels for them** (PIE occurrences, not judged literal or idiomatic), so ``label`` is
    ``None``: use it as an unlabelled pool, not for classification.

The files of a corpus are line-aligned: ``*_Words.txt`` (space-tokenised sentence),
``*_Tags.txt`` (``B-IDIOM``/``I-IDIOM``/``O`` per token), ``*_Candidates.txt`` (the idiom's
canonical form), and for Formal ``*_Labels.txt``. ``text`` is the tokenised sentence as
distributed (tokens joined by one space), ``idiom`` the canonical form, ``meta["span"]`` the
character offsets of the tagged tokens; the 5 Static sentences tagged twice also get
``meta["spans"]`` with both. Ids are ``"<corpus>-<line>"`` (line numbers from 1).

There is no official split: ``train``/``dev``/``test`` are a deterministic 80/10/10 split on a
hash of the sentence text (identical sentences always share a split); ``all`` is every line.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

from ..errors import DataError
from ._common import DERIVED_SPLITS, IDIOMATIC, LITERAL, binary_label, in_split
from .base import Example, register_dataset

LABELS = {"1": IDIOMATIC, "0": LITERAL}
_PARTS = ("Words", "Tags", "Candidates", "Labels")


class EpieReader:
    """Reader for one EPIE corpus folder (Formal or Static)."""

    splits = DERIVED_SPLITS

    def __init__(self, name: str, corpus: str, labelled: bool) -> None:
        self.name = name
        self.corpus = corpus
        self.labelled = labelled

    def files(self, split: str) -> list[tuple[str, ...]]:
        parts = _PARTS if self.labelled else _PARTS[:3]
        folder = f"{self.corpus}_Idioms_Corpus"
        return [("epie", folder, f"{self.corpus}_Idioms_{part}.txt") for part in parts]

    def read(self, paths: Sequence[Path], split: str) -> Iterator[Example]:
        columns = [_read_lines(path) for path in paths]
        if len({len(lines) for lines in columns}) != 1:
            counts = ", ".join(f"'{p.name}' {len(c)}" for p, c in zip(paths, columns))
            raise DataError(
                "E313",
                f"EPIE files should have one line per sentence each, but the line counts differ "
                f"({counts}). Restore the '{paths[0].parent}' folder (see epie/SOURCE.md).",
            )
        for number, values in enumerate(zip(*columns), start=1):
            words, tags, candidate = values[0], values[1], values[2]
            if not in_split(words, split):
                continue
            spans = tag_spans(words, tags, paths[1], number)
            meta: dict = {"span": spans[0]}
            if len(spans) > 1:
                meta["spans"] = spans
            label = None
            if self.labelled:
                meta["raw_label"] = values[3].strip()
                label = binary_label(values[3], LABELS, "EPIE", paths[3], number)
            yield Example(
                id=f"{self.corpus.lower()}-{number}",
                text=words,
                idiom=candidate.strip(),
                label=label,
                meta={**meta, "language": "EN", "source": self.name, "split": split},
            )


def _read_lines(path: Path) -> list[str]:
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    lines = text.split("\n")
    if lines and lines[-1] == "":  # the final newline ends the last line, it starts none
        lines.pop()
    return [line.rstrip("\r") for line in lines]


def tag_spans(words: str, tags: str, path: Path, line: int) -> list[list[int]]:
    """Character spans ``[start, end]`` of the ``B-IDIOM I-IDIOM*`` runs over ``words``.

    >>> tag_spans("I keep an eye on it", "O B-IDIOM I-IDIOM I-IDIOM I-IDIOM O", Path("t"), 1)
    [[2, 16]]
    """
    tokens = words.split(" ")
    labels = tags.split()
    if len(tokens) != len(labels) or not words.strip():
        raise DataError(
            "E313",
            f"EPIE file '{path}', line {line}: {len(labels)} tags for {len(tokens)} tokens. "
            "Each token of the sentence needs one tag; restore the file (see epie/SOURCE.md).",
        )
    spans: list[list[int]] = []
    offset = 0
    for token, tag in zip(tokens, labels):
        if tag == "B-IDIOM":
            spans.append([offset, offset + len(token)])
        elif tag == "I-IDIOM" and spans and spans[-1][1] == offset - 1:
            spans[-1][1] = offset + len(token)
        elif tag != "O":
            raise DataError(
                "E314",
                f"EPIE file '{path}', line {line}: tag {tag!r} on token {token!r} does not "
                "continue a B-IDIOM span (tags are B-IDIOM, I-IDIOM, O). Restore the file "
                "(see epie/SOURCE.md).",
            )
        offset += len(token) + 1
    if not spans:
        raise DataError(
            "E314",
            f"EPIE file '{path}', line {line}: no B-IDIOM tag. Every EPIE sentence tags its "
            "expression; restore the file (see epie/SOURCE.md).",
        )
    return spans


register_dataset(EpieReader("epie-formal", "Formal", labelled=True))
register_dataset(EpieReader("epie-static", "Static", labelled=False))
