"""From dataset examples (or a user's CSV file) to classifier :class:`Item` objects.

Labels become 1 = figurative (idiomatic) / 0 = literal; AStitch Task 1B's ``"1"``/``"0"`` (is
this paraphrase the right meaning?) stay as they are, with the paraphrase as ``second``.
Definitions come from the example (PIE's ``meaning``) or else the bundled lexicon, matched on the
normalised idiom. IDEM has no spans; the finder locates its idiom in the sentence.
"""

from __future__ import annotations

import csv
import functools
from collections.abc import Iterable, Sequence
from pathlib import Path

from ..errors import DataError
from ..evaluate.metrics import normalize_idiom
from .formats import Item

_LABELS = {"idiomatic": 1, "figurative": 1, "literal": 0, "1": 1, "0": 0}
#: columns of a user training file; previous, next, start, end, definition are optional
REQUIRED_COLUMNS = ("text", "idiom", "label")


@functools.lru_cache(maxsize=1)
def _definitions() -> dict[str, str]:
    from ..lexicon import load_lexicon

    found: dict[str, str] = {}
    for entry in load_lexicon():
        if entry.definition:
            found.setdefault(normalize_idiom(entry.idiom), entry.definition)
    return found


def definition_for(idiom: str) -> str | None:
    """The bundled lexicon's definition of ``idiom`` (normalised match), or ``None``."""
    return _definitions().get(normalize_idiom(idiom))


def to_label(value: str | int | None, *, all_figurative: bool = False) -> int | None:
    """1/0 from a dataset label; ``all_figurative`` for corpora of idiomatic uses only (IDEM).

    >>> to_label("idiomatic"), to_label("literal"), to_label("1"), to_label(None)
    (1, 0, 1, None)
    """
    if all_figurative:
        return 1
    if value is None:
        return None
    return _LABELS.get(str(value).strip().lower())


def items_from_dataset(dataset: Iterable, *, source: str = "",
                       all_figurative: bool = False) -> list[Item]:
    """Items from a loaded :class:`~idiomkit.datasets.Dataset` (or any examples)."""
    examples = list(dataset)
    spans = [ex.meta.get("span") for ex in examples]
    if any(s is None for s in spans):
        located = locate_spans([ex.text for ex in examples], [ex.idiom or "" for ex in examples])
        spans = [s if s is not None else found for s, found in zip(spans, located)]
    items = []
    for ex, span in zip(examples, spans):
        meta = ex.meta
        definition = meta.get("meaning") or definition_for(ex.idiom or "")
        items.append(Item(
            text=ex.text, idiom=ex.idiom or "",
            label=to_label(ex.label, all_figurative=all_figurative),
            span=tuple(span) if span else None,
            previous=meta.get("previous") or "", next=meta.get("next") or "",
            second=meta.get("paraphrase"), definition=definition, id=ex.id,
            source=source or meta.get("source", ""), language=meta.get("language", "EN"),
            meta={k: meta[k] for k in ("official_id", "group", "setting") if k in meta},
        ))
    return items


def locate_spans(texts: Sequence[str], idioms: Sequence[str]) -> list[tuple[int, int] | None]:
    """Where each idiom occurs in its text: a case-insensitive exact match, else the finder's
    match of that same idiom (inflected, with a filler, passive...), else ``None``.

    The finder runs over a lexicon of the idioms asked for, not the bundled one: an idiom the
    bundled lexicon lacks is still located, and never at another idiom's words.
    """
    out: list[tuple[int, int] | None] = [None] * len(texts)
    pending: list[int] = []
    for k, (text, idiom) in enumerate(zip(texts, idioms)):
        start = text.lower().find(idiom.lower()) if idiom else -1
        if start >= 0:
            out[k] = (start, start + len(idiom))
        elif idiom and idiom.strip() and text.strip():
            pending.append(k)
    if not pending:
        return out
    from ..finder import Finder
    from ..lexicon import Lexicon, LexiconEntry

    wanted = sorted({normalize_idiom(idioms[k]) for k in pending})
    ids = {idiom: f"located-{n}" for n, idiom in enumerate(wanted)}
    lexicon = Lexicon([LexiconEntry(id=i, idiom=idiom) for idiom, i in ids.items()],
                      name="located")
    finder = Finder(lexicon=lexicon, keep_nested=True, scorer=None)  # every alignment
    for k in pending:
        want = ids[normalize_idiom(idioms[k])]
        same = [s for s in finder.find(texts[k]).idioms if s.idiom_id == want]
        out[k] = (same[0].start, same[0].end) if same else None
    return out


def read_items_csv(path: str | Path) -> list[Item]:
    """Items from a CSV file with columns ``text``, ``idiom``, ``label`` (idiomatic/literal or
    1/0) and optionally ``previous``, ``next``, ``start``, ``end``, ``definition``."""
    path = Path(path)
    try:
        handle = open(path, encoding="utf-8-sig", newline="")
    except OSError as exc:
        raise DataError("E362", f"Cannot read training file '{path}': {exc.strerror}.") from None
    with handle:
        reader = csv.DictReader(handle)
        header = reader.fieldnames or []
        missing = [c for c in REQUIRED_COLUMNS if c not in header]
        if missing:
            raise DataError(
                "E363", f"Training file '{path}' has no column {', '.join(map(repr, missing))} "
                f"(header: {', '.join(map(repr, header)) or 'empty'}). A training file needs "
                "text, idiom and label (idiomatic/literal or 1/0); previous, next, start, end "
                "and definition are optional.")
        rows = list(reader)
    items = []
    for line, row in enumerate(rows, start=2):
        label = to_label(row["label"])
        if label is None:
            raise DataError("E364", f"{path}, line {line}: label {row['label']!r} is not "
                            "idiomatic/literal or 1/0.")
        span = None
        if row.get("start", "").strip() and row.get("end", "").strip():
            span = (int(row["start"]), int(row["end"]))
        items.append(Item(
            text=row["text"], idiom=row["idiom"], label=label, span=span,
            previous=row.get("previous") or "", next=row.get("next") or "",
            definition=row.get("definition") or definition_for(row["idiom"]),
            id=f"{path.name}:{line}", source=path.stem))
    if any(item.span is None for item in items):
        located = locate_spans([i.text for i in items], [i.idiom for i in items])
        items = [i if i.span else _with_span(i, s) for i, s in zip(items, located)]
    return items


def _with_span(item: Item, span: tuple[int, int] | None) -> Item:
    from dataclasses import replace

    return replace(item, span=span)
