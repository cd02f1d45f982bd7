"""Helpers the idiomatic-vs-literal corpus readers share: checked CSV rows, label mapping,
expression spans, and the deterministic split for corpora that ship without one.

Every reader of an idiomatic-vs-literal corpus yields :class:`~idiomkit.datasets.Example` objects
with ``label`` exactly ``"idiomatic"`` or ``"literal"`` (the corpus's own label kept in
``meta["raw_label"]``) and, where it can be found, ``meta["span"] = [start, end]``: the
expression's character offsets in ``text``.
"""

from __future__ import annotations

import csv
import functools
import hashlib
import re
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

from ..errors import DataError

IDIOMATIC = "idiomatic"
LITERAL = "literal"

#: shares of the deterministic split (train, dev, test), in tenths
_BUCKETS = ("train",) * 8 + ("dev", "test")
#: split names of a corpus without an official split
DERIVED_SPLITS = ("all", "train", "dev", "test")

# Hyphens and dashes separate words like spaces do ("gelo-seco" = "gelo seco").
_WORD_SEP = re.compile(r"[\s\-‐‑‒–—―]+")


def read_csv_rows(
    path: Path, required: Sequence[str], corpus: str, *, allow_empty: Sequence[str] = ()
) -> Iterator[tuple[int, dict[str, str]]]:
    """Yield ``(line number, row)`` for each row of a CSV file with a header.

    Raises :class:`DataError` E310 when a ``required`` column is missing and E311 when a row
    has no value in a required column (except those in ``allow_empty``, which may be blank).
    """
    # utf-8-sig: a BOM written by a spreadsheet program must not rename the first column
    with open(path, encoding="utf-8-sig", newline="") as handle:
        reader = csv.reader(handle)
        header = next(reader, [])
        missing = [column for column in required if column not in header]
        if missing:
            raise DataError(
                "E310",
                f"{corpus} file '{path}' has no column {', '.join(repr(c) for c in missing)} "
                f"(header: {', '.join(repr(c) for c in header) or 'empty'}). Restore the file "
                f"from the release its SOURCE.md names.",
            )
        # plain lists and one zip per row: token-per-row corpora have hundreds of thousands
        strict = [(header.index(c), c) for c in required if c not in allow_empty]
        width = max(header.index(c) for c in required) + 1 if required else 0
        for row in reader:
            if len(row) < width:
                row = row + [""] * (width - len(row))
            for index, column in strict:
                if not row[index].strip():
                    raise DataError(
                        "E311",
                        f"{corpus} file '{path}', line {reader.line_num}: the row has no value "
                        f"in column '{column}'. Restore the file from the release its SOURCE.md "
                        "names.",
                    )
            yield reader.line_num, dict(zip(header, row))


def binary_label(
    raw: str, mapping: Mapping[str, str], corpus: str, path: Path, line: int
) -> str:
    """Map a corpus's raw label to ``"idiomatic"``/``"literal"``, or raise DataError E312."""
    key = raw.strip()
    if key not in mapping:
        raise DataError(
            "E312",
            f"{corpus} file '{path}', line {line}: unknown label {raw!r}. Expected one of "
            f"{', '.join(repr(k) for k in mapping)} (see the corpus's SOURCE.md).",
        )
    return mapping[key]


def find_span(text: str, expression: str) -> tuple[int, int] | None:
    """Character offsets of ``expression`` in ``text``, or ``None`` when it is not there.

    Tried in order, case-insensitive, whole words, spaces and hyphens interchangeable:
    1. the expression itself;
    2. its words in order, each allowed an inflected ending (a word of up to three letters
       may add "s"/"es"; a longer one keeps all but its last two letters, at least three,
       then any letters), and dictionary placeholders ("your", "one's", "someone", "[pron]")
       standing for any one word: "efeitos especiais" for "efeito especial", "bit the bullet"
       for "bite the bullet", "drop his guard" for "drop your guard";
    3. the same with up to three other words between two of its words ("eat you out of
       house and home"); the span then runs from its first word to its last.

    >>> find_span("They spilled the beans.", "spill the beans")
    (5, 22)
    >>> find_span("Um gelo seco.", "gelo-seco")
    (3, 12)
    >>> find_span("Ola proceeded to eat you out of house and home", "eat out of house and home")
    (17, 46)
    >>> find_span("No idiom here.", "cold feet") is None
    True
    """
    for pattern in _patterns(expression):
        found = pattern.search(text)
        if found is not None:
            return found.span()
    return None


@functools.lru_cache(maxsize=8192)
def _patterns(expression: str) -> tuple[re.Pattern[str], ...]:
    # compiled once per expression: corpora repeat each expression many times
    words = [w for w in _WORD_SEP.split(expression.strip()) if w]
    if not words:
        return ()
    exact = _SEP.join(re.escape(w) for w in words)
    stems = [_word_pattern(w) for w in words]
    sources = [rf"(?<!\w){exact}(?!\w)", r"(?<!\w)" + r"[\W_]+".join(stems)]
    if len(stems) > 1:
        sources.append(r"(?<!\w)" + r"[\W_]+(?:\w+[\W_]+){0,3}?".join(stems))
    return tuple(re.compile(source, re.IGNORECASE) for source in sources)


#: words that stand for any word in dictionary forms of idioms
_PLACEHOLDERS = frozenset({
    "one's", "oneself", "someone", "someone's", "somebody", "somebody's", "something",
    "your", "yours", "yourself", "[pron]", "(somebody)", "([pron])",
})
_SEP = r"[\s\-‐‑‒–—―]+"


def _word_pattern(word: str) -> str:
    if word.lower().replace("’", "'") in _PLACEHOLDERS:
        return r"\w+(?:['’]s)?"
    if len(word) <= 3 or not word[-1].isalpha():
        return re.escape(word) + r"(?:e?s)?(?!\w)"
    return re.escape(word[: max(3, len(word) - 2)]) + r"\w*"


def span_meta(text: str, expression: str | None) -> dict[str, list[int]]:
    """``{"span": [start, end]}`` for :func:`find_span`, or ``{}`` when it finds nothing."""
    span = find_span(text, expression) if expression else None
    return {"span": list(span)} if span else {}


def split_of(text: str) -> str:
    """The deterministic split (``train``/``dev``/``test``, 80/10/10) a sentence belongs to.

    It depends on the text alone (SHA-256), so identical sentences land in the same split and
    the assignment does not move when the corpus grows.

    >>> split_of("I will keep an eye on him.")
    'train'
    """
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return _BUCKETS[int.from_bytes(digest[:8], "big") % len(_BUCKETS)]


def in_split(text: str, split: str) -> bool:
    """Whether a sentence belongs to ``split`` (``all`` holds every sentence)."""
    return split == "all" or split_of(text) == split
