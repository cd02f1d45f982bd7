"""An IdioTS-style test set (idiomatic sentences and literal distractors) and a reader for the
IdioTS release format.

IdioTS (Bengoetxea et al. 2024) is 164 idiomatic sentences and 86 "distractors": sentences
that contain an idiom's words used literally, each with its associated expression. It is not
public, so ``idiots-style`` builds a set of the same kind from shared data:

- distractors: the **literal** sentences of the ``test`` splits of ``epie-formal`` (Labelled
  EPIE, label 0) and ``pie-english`` (class Literal), each with its expression;
- idiomatic sentences: as many from the same test splits and sources, expressions that also
  have a distractor in the set first (as IdioTS pairs them), then others.

Only test splits are used so that a system trained on those corpora's train splits is judged
on sentences it never saw. The ``dev`` split is drawn the same way from the dev splits, for
tuning a system without looking at the test set. The sample is deterministic (seed
:data:`SEED`), balanced (:data:`PER_CLASS` sentences per class, 240 in all: an LLM run stays
feasible on a CPU), and keeps sentences of 6 to 50 words. Both corpora are tokenised;
sentences are detokenised ("team 's been" → "team's been") because the LLMs are asked about
natural text, and ``meta["span"]`` is moved along. ``label`` is ``"idiomatic"`` or
``"literal"``; ``idiom`` is the associated expression in its corpus's dictionary form (EPIE's
``[pron]`` slots kept).

A user who has IdioTS itself reads it with :func:`read_idiots_file` (CSV, TSV, JSON or JSONL;
see there), or passes the file to ``idiomkit eval detection --dataset FILE``.

>>> detokenize("A response team 's been set up , ‘ he said ’ .", (11, 23))
("A response team's been set up, ‘he said’.", (11, 22))
"""

from __future__ import annotations

import csv
import json
import random
import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from ..errors import DataError
from .base import Dataset, Example, get_reader, register_dataset
from .paths import checksum

IDIOMATIC, LITERAL = "idiomatic", "literal"
SEED = 13
PER_CLASS = 120
MIN_WORDS, MAX_WORDS = 6, 50
#: the corpora the set is drawn from, in order (from their split of the same name)
SOURCES = ("epie-formal", "pie-english")

_NO_SPACE_BEFORE = frozenset({",", ".", ";", ":", "!", "?", "%", ")", "]", "}", "’", "”",
                              "n't", "'s", "'re", "'ve", "'ll", "'d", "'m", "'", "...", "’s"})
_NO_SPACE_AFTER = frozenset({"(", "[", "{", "‘", "“", "$", "£"})


def detokenize(text: str, span: Sequence[int] | None = None) -> tuple[str, tuple[int, int] | None]:
    """Join space-separated tokens as running text; move ``span`` (character offsets) along."""
    tokens = text.split(" ")
    out: list[str] = []
    starts: dict[int, int] = {}
    ends: dict[int, int] = {}
    old = 0
    length = 0
    glue_next = False
    for token in tokens:
        if not token:
            old += 1
            continue
        lower = token.lower()
        glue = glue_next or not out or lower in _NO_SPACE_BEFORE or (
            lower.startswith("'") and len(lower) <= 3 and lower[1:].isalpha())
        if not glue:
            out.append(" ")
            length += 1
        starts[old] = length
        out.append(token)
        length += len(token)
        ends[old + len(token)] = length
        glue_next = token in _NO_SPACE_AFTER
        old += len(token) + 1
    joined = "".join(out)
    if span is None:
        return joined, None
    start, end = int(span[0]), int(span[1])
    if start in starts and end in ends:
        return joined, (starts[start], ends[end])
    return joined, None


def _words(text: str) -> int:
    return len(re.findall(r"\w+", text))


def _usable(example: Example) -> bool:
    return bool(example.idiom) and MIN_WORDS <= _words(example.text) <= MAX_WORDS


def expression_key(idiom: str) -> str:
    """An expression with its slots and bracketed parts dropped, lower case: one key per type.

    >>> expression_key("Take [pron] for a ride (informal)")
    'take for a ride'
    """
    return " ".join(re.sub(r"\[[^\]]*\]|\([^)]*\)", " ", idiom.lower()).split())


def _convert(example: Example, source: str) -> Example:
    text, span = detokenize(example.text, example.meta.get("span"))
    meta: dict[str, Any] = {
        "source": source,
        "source_id": example.id,
        "distractor": example.label == LITERAL,
        "raw_label": example.meta.get("raw_label"),
    }
    if span is not None:
        meta["span"] = list(span)
    if example.meta.get("meaning"):
        meta["meaning"] = example.meta["meaning"]
    return Example(id=example.id, text=text, idiom=example.idiom, label=example.label, meta=meta)


def build_idiots_style(
    pools: Sequence[tuple[str, Sequence[Example]]], *, per_class: int = PER_CLASS, seed: int = SEED,
) -> list[Example]:
    """The balanced sample described in the module docstring, from ``(source, examples)`` pools.

    Literal sentences are split over the sources evenly, a source with fewer giving all it has;
    each source then gives as many idiomatic sentences as literal ones.
    """
    rng = random.Random(seed)
    literal = {s: sorted((e for e in ex if e.label == LITERAL and _usable(e)), key=lambda e: e.id)
               for s, ex in pools}
    idiomatic = {s: sorted((e for e in ex if e.label == IDIOMATIC and _usable(e)),
                           key=lambda e: e.id) for s, ex in pools}
    quota = _quotas({s: len(v) for s, v in literal.items()}, per_class)
    chosen: list[Example] = []
    for source, _ in pools:
        distractors = rng.sample(literal[source], quota[source])
        paired = {expression_key(e.idiom or "") for e in distractors}
        first = [e for e in idiomatic[source] if expression_key(e.idiom or "") in paired]
        rest = [e for e in idiomatic[source] if expression_key(e.idiom or "") not in paired]
        rng.shuffle(first)
        rng.shuffle(rest)
        ordered = _one_per_expression(first)
        taken = {e.id for e in ordered}
        ordered += [e for e in first if e.id not in taken] + rest
        if len(ordered) < quota[source]:
            raise DataError(
                "E333", f"'{source}' has {len(ordered)} usable idiomatic test sentences; the "
                f"IdioTS-style set needs {quota[source]}. Check the data folder (see SOURCE.md)."
            )
        chosen += [_convert(e, source) for e in distractors + ordered[:quota[source]]]
    return sorted(chosen, key=lambda e: (e.meta["source"], e.label or "", e.id))


def _one_per_expression(examples: Sequence[Example]) -> list[Example]:
    """The first example of each expression, in order."""
    seen: set[str] = set()
    kept = []
    for example in examples:
        key = expression_key(example.idiom or "")
        if key not in seen:
            seen.add(key)
            kept.append(example)
    return kept


def _quotas(available: dict[str, int], total: int) -> dict[str, int]:
    """Split ``total`` over sources as evenly as their sizes allow.

    >>> _quotas({"a": 30, "b": 116}, 120)
    {'a': 30, 'b': 90}
    """
    if sum(available.values()) < total:
        raise DataError(
            "E333", f"The sources have {sum(available.values())} usable literal test sentences; "
            f"the IdioTS-style set needs {total}. Check the data folder (see SOURCE.md)."
        )
    quota = dict.fromkeys(available, 0)
    left = total
    while left:
        open_sources = [s for s in available if quota[s] < available[s]]
        share = max(1, left // len(open_sources))
        for source in open_sources:
            take = min(share, available[source] - quota[source], left)
            quota[source] += take
            left -= take
    return quota


class IdiotsStyleReader:
    """``idiots-style``: the set is derived from other registered corpora (module docstring)."""

    name = "idiots-style"
    #: ``test`` is the set; ``dev``, drawn the same way from the dev splits, is for tuning
    splits = ("dev", "test")

    def files(self, split: str) -> list[tuple[str, ...]]:
        return [parts for name in SOURCES for parts in get_reader(name).files(split)]

    def read(self, paths: Sequence[Path], split: str) -> Iterator[Example]:
        pools = []
        offset = 0
        for name in SOURCES:
            reader = get_reader(name)
            count = len(reader.files(split))
            pools.append((name, list(reader.read(paths[offset:offset + count], split))))
            offset += count
        yield from build_idiots_style(pools)


# -- the IdioTS release format --------------------------------------------------------------

_ID_COLUMNS = ("id", "sentence_id", "sentenceid", "sent_id")
_TEXT_COLUMNS = ("sentence", "text", "example")
_IDIOM_COLUMNS = ("idiom", "pie", "expression", "associated_idiom", "associatedidiom")
_LABEL_COLUMNS = ("label", "class", "type", "gold", "is_idiomatic", "idiomatic", "hasidiom")
_LABEL_VALUES = {
    IDIOMATIC: {"idiomatic", "idiom", "i", "1", "true", "yes", "positive", "figurative", "pos"},
    LITERAL: {"distractor", "literal", "d", "0", "false", "no", "negative", "non-idiomatic",
              "nonidiomatic", "neg"},
}
#: an id's suffix marks the class when there is no label column ("idi07_i1", "idi07-d")
_SUFFIX_RE = re.compile(r"[_\-.](?P<kind>i|d|idiomatic|distractor|lit|literal)\d*$", re.I)


def _norm_label(value: Any) -> str | None:
    text = str(value).strip().lower()
    for label, values in _LABEL_VALUES.items():
        if text in values:
            return label
    return None


def _column(header: Sequence[str], names: Sequence[str]) -> str | None:
    lowered = {h.strip().lower().replace(" ", "_"): h for h in header}
    return next((lowered[n] for n in names if n in lowered), None)


def _rows(path: Path) -> list[dict[str, Any]]:
    suffix = path.suffix.lower()
    text = path.read_text(encoding="utf-8-sig")
    try:
        if suffix == ".jsonl":
            return [json.loads(line) for line in text.splitlines() if line.strip()]
        if suffix == ".json":
            data = json.loads(text)
            if isinstance(data, dict):  # {"sentences": [...]} or {id: {...}}
                lists = [v for v in data.values() if isinstance(v, list)]
                data = lists[0] if lists else [{"id": k, **v} for k, v in data.items()
                                               if isinstance(v, dict)]
            return list(data)
    except ValueError as error:
        raise DataError("E330", f"IdioTS file '{path}' is not valid JSON: {error}.") from None
    delimiter = "\t" if suffix == ".tsv" or text.split("\n", 1)[0].count("\t") else ","
    return list(csv.DictReader(text.splitlines(), delimiter=delimiter))


def read_idiots_file(path: str | Path, name: str = "idiots") -> Dataset:
    """Read an IdioTS release file into a :class:`Dataset` (split ``test``).

    Accepted: CSV/TSV with a header, JSON (a list of objects) or JSONL, with columns (any case)
    ``id``, ``sentence`` (or ``text``), ``idiom`` (the associated expression; also ``PIE``,
    ``expression``) and ``label`` (``idiomatic``/``distractor``, ``literal``, 1/0, true/false;
    also ``class``, ``type``). Without a label column the class is read from the id's suffix
    (``idi07_i1`` idiomatic, ``idi07_d1`` distractor), as IdioTS ids end in one.
    """
    path = Path(path)
    if not path.is_file():
        raise DataError("E330", f"IdioTS file '{path}' does not exist.")
    rows = [r for r in _rows(path) if isinstance(r, dict)]
    if not rows:
        raise DataError("E330", f"IdioTS file '{path}' has no rows.")
    header = list(rows[0])
    columns = {k: _column(header, names) for k, names in (
        ("id", _ID_COLUMNS), ("text", _TEXT_COLUMNS), ("idiom", _IDIOM_COLUMNS),
        ("label", _LABEL_COLUMNS))}
    if columns["text"] is None:
        raise DataError(
            "E330", f"IdioTS file '{path}' has no sentence column (header: "
            f"{', '.join(map(str, header))}). Expected one of: {', '.join(_TEXT_COLUMNS)}."
        )
    examples = []
    for number, row in enumerate(rows, start=1):
        example_id = str(row.get(columns["id"]) or number) if columns["id"] else str(number)
        text = str(row.get(columns["text"]) or "").strip()
        raw = row.get(columns["label"]) if columns["label"] else None
        label = _norm_label(raw) if raw is not None else None
        if label is None and raw is None:
            suffix = _SUFFIX_RE.search(example_id)
            kind = suffix.group("kind").lower() if suffix else ""
            label = IDIOMATIC if kind in ("i", "idiomatic") else LITERAL if kind else None
        if not text or label is None:
            what = "no sentence" if not text else f"no readable label ({raw!r})"
            raise DataError(
                "E331", f"IdioTS file '{path}', row {number} (id {example_id!r}): {what}. Labels "
                "are idiomatic/distractor (or literal, 1/0, true/false)."
            )
        idiom = str(row.get(columns["idiom"]) or "").strip() or None if columns["idiom"] else None
        examples.append(Example(id=example_id, text=text, idiom=idiom, label=label,
                                meta={"source": name, "distractor": label == LITERAL}))
    if len({e.id for e in examples}) != len(examples):
        raise DataError("E332", f"IdioTS file '{path}' repeats an id; ids must be unique.")
    return Dataset(name=name, split="test", examples=examples, files=[path],
                   checksum=checksum([path]))


register_dataset(IdiotsStyleReader())
