"""Inputs of natural-distribution sampling (:mod:`.sampling`) read from files and datasets.

Positives are idiomatic sentences with the character span of their expression, from a built-in
dataset or a CSV/JSONL file (columns as for ``idiomkit audit --input``, :mod:`.inputs`); the pool
is a text file (one sentence per line) or JSONL with a ``text`` field. A bad row stops the read
with a coded error naming file and line. ``idiomkit sample-negatives`` is the command over these.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import ConfigError, DataError
from .inputs import (
    DEFAULT_LABELS,
    EXPRESSION_KEYS,
    SENTENCE_KEYS,
    _span,
    _value,
    json_objects,
)

if TYPE_CHECKING:
    from .sampling import SamplingResult


@dataclass
class Positives:
    """Positives as ``(sentence, (start, end))``, an id for each, and where they came from."""

    pairs: list[tuple[str, tuple[int, int]]]
    ids: list[str]
    source: str
    #: rows or examples left out, by reason
    skipped: dict[str, int] = field(default_factory=dict)


@dataclass
class Pool:
    """The pool's sentences with their 1-based line numbers in the file."""

    sentences: list[str]
    lines: list[int]
    blank_lines: int


def positives_from_dataset(name: str, split: str, data_dir: Path | None) -> Positives:
    """The idiomatic examples of a built-in dataset split that carry ``meta["span"]``."""
    from ..datasets import load_dataset
    from ..datasets._common import IDIOMATIC
    from .sampling import positives_from_examples

    data = load_dataset(name, split, data_dir)
    idiomatic = [e for e in data if e.label == IDIOMATIC]
    with_span = [e for e in idiomatic if e.meta.get("span")]
    skipped = {"not idiomatic": len(data) - len(idiomatic),
               "idiomatic without a span": len(idiomatic) - len(with_span)}
    return Positives(positives_from_examples(with_span), [e.id for e in with_span],
                     f"dataset '{name}' split '{split}'", skipped)


def read_positives_file(path: Path) -> Positives:
    """Positives from a CSV or JSONL file; a bad row stops the read, naming file and line.

    Columns as for ``idiomkit audit --input`` (:mod:`idiomkit.audit.inputs`): ``sentence`` (or
    ``text``), ``expression`` (or ``idiom``, ``mwe``, ``pme``) and/or ``start``/``end``; a
    ``label`` column is optional and keeps only the idiomatic rows.
    """

    suffix = path.suffix.lower()
    if not path.is_file() or suffix not in (".csv", ".jsonl", ".json"):
        problem = "does not exist" if not path.is_file() else f"ends in '{suffix or 'nothing'}'"
        raise ConfigError(
            "E482",
            f"Positives file '{path}' {problem}. Pass a .csv or .jsonl file with sentence and "
            "expression (or start/end) columns.",
        )
    rows = _csv_rows(path) if suffix == ".csv" else _jsonl_rows(path)
    pairs: list[tuple[str, tuple[int, int]]] = []
    ids: list[str] = []
    literal = 0
    for line, row in rows:
        where = f"Positives file '{path}', line {line}"
        raw = str(row.get("label") or "").strip()
        if raw and raw.lower() not in DEFAULT_LABELS:
            raise ConfigError(
                "E483", f"{where}: unknown label {raw!r}. Expected one of "
                f"{', '.join(DEFAULT_LABELS)}, or no label column.")
        if raw and DEFAULT_LABELS[raw.lower()] != "idiomatic":
            literal += 1
            continue
        sentence = _value(row, SENTENCE_KEYS)
        if not isinstance(sentence, str) or not sentence.strip():
            raise ConfigError(
                "E483", f"{where}: the row has no sentence. Fill it in or remove the row.")
        try:
            span = _span(where, sentence, _value(row, EXPRESSION_KEYS), row.get("start"),
                         row.get("end"))
        except DataError as exc:  # the audit reader's checks, under this command's code
            raise ConfigError("E483", exc.message) from None
        pairs.append((sentence, span))
        ids.append(f"line-{line}")
    return Positives(pairs, ids, f"'{path}'", {"literal rows": literal})


def _csv_rows(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:

    with open(path, encoding="utf-8-sig", newline="") as handle:
        reader = csv.DictReader(handle)
        columns = reader.fieldnames or []
        if not any(k in columns for k in SENTENCE_KEYS) or not (
            any(k in columns for k in EXPRESSION_KEYS) or {"start", "end"} <= set(columns)
        ):
            raise ConfigError(
                "E482",
                f"Positives file '{path}', line 1: expected columns sentence and expression "
                f"(or start and end); got {', '.join(repr(c) for c in columns) or 'none'}.",
            )
        for row in reader:
            yield reader.line_num, row


def _jsonl_rows(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    def bad_line(line: int, problem: str) -> ConfigError:
        return ConfigError("E483", f"Positives file '{path}', line {line}: {problem}. Each line "
                           "is a JSON object with sentence and expression (or start/end).")

    return json_objects(path, bad_line)


def read_pool(path: Path) -> Pool:
    """The sentences of a pool file: ``.jsonl`` (a ``text`` field per line) or plain text (one
    sentence per line). Blank lines are skipped and counted."""

    if not path.is_file():
        raise ConfigError(
            "E484", f"Pool file '{path}' does not exist. Pass a text file with one sentence per "
            "line, or a .jsonl file with a 'text' field.")
    jsonl = path.suffix.lower() == ".jsonl"
    sentences: list[str] = []
    lines: list[int] = []
    blank = 0
    with open(path, encoding="utf-8-sig") as handle:
        for line, raw in enumerate(handle, start=1):
            text = raw.strip()
            if jsonl and text:
                text = _pool_text(path, line, text)
            if not text:
                blank += 1
                continue
            sentences.append(text)
            lines.append(line)
    if not sentences:
        raise ConfigError(
            "E484", f"Pool file '{path}' has no sentences ({blank} blank lines). Fill it with "
            "unlabelled sentences, one per line.")
    return Pool(sentences, lines, blank)


def _pool_text(path: Path, line: int, raw: str) -> str:

    try:
        row = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise ConfigError(
            "E484", f"Pool file '{path}', line {line}: not valid JSON ({exc.msg}).") from None
    if not isinstance(row, dict) or not isinstance(row.get("text"), str):
        raise ConfigError(
            "E484", f"Pool file '{path}', line {line}: expected a JSON object with a 'text' "
            "string. Use a .txt file for plain sentences.")
    return row["text"].strip()


def negative_records(result: SamplingResult, positives: Positives, pool: Pool) -> list[dict]:
    """One JSON-ready record per negative, in the order of the positives."""
    return [
        {
            "text": n.text,
            "span": list(n.span),
            "expression": n.text[n.span[0]:n.span[1]],
            "level": n.level,
            "positive": n.positive,
            "positive_id": positives.ids[n.positive],
            "positive_text": positives.pairs[n.positive][0],
            "pool_line": pool.lines[n.pool_index],
        }
        for n in result.negatives
    ]
