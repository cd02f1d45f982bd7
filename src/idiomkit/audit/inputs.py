"""Read a user's own labelled dataset (CSV or JSONL) for an audit, refusing what would make the
audit meaningless, each time naming the row.

Columns (a JSONL line is an object with the same keys):

- ``sentence`` (or ``text``): the sentence;
- ``expression`` (or ``idiom``, ``mwe``, ``pme``) and/or ``start`` and ``end`` (character
  offsets into the sentence, end exclusive): the expression. With offsets only, the expression is
  the text they cover; with both, they must agree; with the expression only, it must occur in
  the sentence (case-insensitive; inflected forms and "your"/"one's" placeholders are found, see
  :func:`~idiomkit.datasets._common.find_span`);
- ``label``: by default one of idiomatic/figurative/metaphor/metaphorical (-> ``idiomatic``) or
  literal (-> ``literal``); with ``labels`` any declared set, optionally mapped
  (``idiomatic=0,literal=1``);
- ``split`` (optional): ``train``, ``dev`` (or ``validation``/``valid``/``val``), ``test``. Without
  it every row gets the deterministic 80/10/10 split on a hash of its sentence.

Nothing is silently dropped: a malformed row stops the read with a :class:`DataError` (E350-E359)
that names the file and line.
"""

from __future__ import annotations

import csv
import json
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..datasets import Example
from ..datasets._common import find_span, split_of
from ..errors import ConfigError, DataError

SENTENCE_KEYS = ("sentence", "text")
EXPRESSION_KEYS = ("expression", "idiom", "mwe", "pme")
#: default label vocabulary: raw value (case-insensitive) -> audit label
DEFAULT_LABELS = {
    "idiomatic": "idiomatic",
    "figurative": "idiomatic",
    "metaphor": "idiomatic",
    "metaphorical": "idiomatic",
    "literal": "literal",
}
SPLIT_ALIASES = {
    "train": "train", "dev": "dev", "validation": "dev", "valid": "dev", "val": "dev",
    "test": "test",
}


@dataclass
class AuditInput:
    """The examples of a user file by split, and how the split was obtained."""

    path: Path
    splits: dict[str, list[Example]]
    derived_split: bool
    labels: dict[str, str] = field(default_factory=dict)


def parse_labels(spec: str | None) -> dict[str, str] | None:
    """``"idiomatic=0,literal=1"`` -> ``{"0": "idiomatic", "1": "literal"}``; ``"a,b"`` ->
    ``{"a": "a", "b": "b"}``; ``None`` -> ``None`` (the default vocabulary).

    >>> parse_labels("idiomatic=0, literal=1")
    {'0': 'idiomatic', '1': 'literal'}
    """
    if spec is None:
        return None
    mapping: dict[str, str] = {}
    for item in (part.strip() for part in spec.split(",")):
        name, _, raw = item.partition("=")
        name, raw = name.strip(), (raw.strip() if raw else name.strip())
        if not name or not raw or raw in mapping:
            raise ConfigError(
                "E472",
                f"The '--labels' option must list distinct labels, as 'a,b' or "
                f"'idiomatic=0,literal=1'. Got {spec!r}.",
            )
        mapping[raw] = name
    if len(set(mapping.values())) < 2:
        raise ConfigError(
            "E472", f"The '--labels' option must name at least two labels. Got {spec!r}."
        )
    return mapping


def read_audit_input(path: str | Path, labels: dict[str, str] | None = None) -> AuditInput:
    """Read and validate ``path`` (``.csv``, ``.jsonl`` or ``.json`` lines)."""
    path = Path(path)
    if not path.is_file():
        raise DataError("E350", f"Audit input '{path}' does not exist. Pass a CSV or JSONL file.")
    suffix = path.suffix.lower()
    if suffix not in (".csv", ".jsonl", ".json"):
        raise DataError(
            "E350",
            f"Audit input '{path}' must end in .csv or .jsonl (one JSON object per line). "
            f"Got '{suffix or 'no suffix'}'.",
        )
    rows = _csv_rows(path) if suffix == ".csv" else _jsonl_rows(path)
    splits: dict[str, list[Example]] = {"train": [], "dev": [], "test": []}
    seen_labels: Counter = Counter()
    lines: list[int] = []
    without_split: list[int] = []
    for line, row in rows:
        example, split = _example(path, line, row, labels)
        if split is None:
            without_split.append(line)
        splits[split or split_of(example.text)].append(example)
        seen_labels[example.label] += 1
        lines.append(line)
    has_split = len(without_split) < len(lines)
    if has_split and without_split:
        raise DataError(
            "E352",
            f"Audit input '{path}', line {without_split[0]}: the row has no split while other "
            "rows have one. Give every row a split (train, dev, test) or none.",
        )
    if not lines:
        raise DataError("E355", f"Audit input '{path}' has no rows. Add labelled sentences.")
    if len(seen_labels) == 1:
        (only,) = seen_labels
        raise DataError(
            "E356",
            f"Audit input '{path}': the label column has one class: every row (lines "
            f"{lines[0]}-{lines[-1]}) is labelled '{only}'. An audit compares classes; add "
            "examples of the other class.",
        )
    for name in ("train", "test"):
        if not splits[name]:
            how = "in its 'split' column" if has_split else "by the hash split"
            raise DataError(
                "E355",
                f"Audit input '{path}': the '{name}' split is empty (no row is assigned to it "
                f"{how}). Give rows the split '{name}'"
                + ("" if has_split else ", or add a 'split' column")
                + ".",
            )
    return AuditInput(path, splits, derived_split=not has_split, labels=labels or DEFAULT_LABELS)


def _csv_rows(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    with open(path, encoding="utf-8-sig", newline="") as handle:
        reader = csv.DictReader(handle)
        _check_columns(path, reader.fieldnames or [])
        for row in reader:
            yield reader.line_num, row


def json_objects(path: Path, bad_line: Callable[[int, str], Exception]
                 ) -> Iterator[tuple[int, dict[str, Any]]]:
    """``(line number, object)`` for each non-blank line of a JSONL file; a line that is not a
    JSON object raises ``bad_line(line, problem)``, the caller's coded error."""
    with open(path, encoding="utf-8-sig") as handle:
        for line, raw in enumerate(handle, start=1):
            if not raw.strip():
                continue
            try:
                row = json.loads(raw)
            except json.JSONDecodeError as exc:
                raise bad_line(line, f"not valid JSON ({exc.msg})") from None
            if not isinstance(row, dict):
                raise bad_line(line, f"expected a JSON object, got {type(row).__name__}")
            yield line, row


def _jsonl_rows(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    def bad_line(line: int, problem: str) -> DataError:
        return DataError("E357", f"Audit input '{path}', line {line}: {problem}. Each line is "
                         "a JSON object with sentence, expression and label.")

    checked = False
    for line, row in json_objects(path, bad_line):
        if not checked:
            _check_columns(path, list(row))
            checked = True
        yield line, row


def _check_columns(path: Path, columns: list[str]) -> None:
    needs = []
    if not any(key in columns for key in SENTENCE_KEYS):
        needs.append("'sentence'")
    if not any(key in columns for key in EXPRESSION_KEYS) and not {"start", "end"} <= set(
        columns
    ):
        needs.append("'expression' (or 'start' and 'end')")
    if "label" not in columns:
        needs.append("'label'")
    if needs:
        raise DataError(
            "E351",
            f"Audit input '{path}' has no column {' or '.join(needs)} (columns: "
            f"{', '.join(repr(c) for c in columns) or 'none'}). Expected sentence, expression "
            "(or start/end offsets), label and optionally split.",
        )


def _value(row: dict[str, Any], keys: tuple[str, ...]) -> Any:
    for key in keys:
        if row.get(key) not in (None, ""):
            return row[key]
    return None


def _example(
    path: Path, line: int, row: dict[str, Any], labels: dict[str, str] | None
) -> tuple[Example, str | None]:
    where = f"Audit input '{path}', line {line}"
    sentence = _value(row, SENTENCE_KEYS)
    if not isinstance(sentence, str) or not sentence.strip():
        raise DataError("E352", f"{where}: the row has no sentence. Fill it in or remove the row.")
    span = _span(where, sentence, _value(row, EXPRESSION_KEYS), row.get("start"), row.get("end"))
    raw = row.get("label")
    raw = "" if raw is None else str(raw).strip()
    if not raw:
        raise DataError("E352", f"{where}: the row has no label. Fill it in or remove the row.")
    vocabulary = labels if labels is not None else DEFAULT_LABELS
    key = raw if labels is not None else raw.lower()
    if key not in vocabulary:
        hint = "" if labels is not None else " or declare your labels with --labels"
        raise DataError(
            "E354",
            f"{where}: unknown label {raw!r}. Expected one of "
            f"{', '.join(repr(k) for k in vocabulary)}{hint}.",
        )
    split = _split(where, row.get("split"))
    start, end = span
    return (
        Example(
            id=f"line-{line}",
            text=sentence,
            idiom=sentence[start:end],
            label=vocabulary[key],
            meta={"span": [start, end], "raw_label": raw, "line": line},
        ),
        split,
    )


def _span(where: str, sentence: str, expression: Any, start: Any, end: Any) -> tuple[int, int]:
    if start not in (None, "") or end not in (None, ""):
        try:
            begin, finish = int(start), int(end)
        except (TypeError, ValueError):
            raise DataError(
                "E359",
                f"{where}: start/end must be whole numbers (character offsets). Got "
                f"start={start!r}, end={end!r}.",
            ) from None
        if not 0 <= begin < finish <= len(sentence):
            raise DataError(
                "E359",
                f"{where}: offsets {begin}-{finish} are outside the sentence (0-{len(sentence)}) "
                "or empty. Offsets count characters from 0, end exclusive.",
            )
        covered = sentence[begin:finish]
        if isinstance(expression, str) and expression.strip():
            if find_span(covered, expression) is None:
                raise DataError(
                    "E353",
                    f"{where}: the offsets {begin}-{finish} cover {covered!r}, not the "
                    f"expression {expression!r}. Fix the offsets or the expression.",
                )
        return begin, finish
    if not isinstance(expression, str) or not expression.strip():
        raise DataError(
            "E352", f"{where}: the row has no expression (nor start/end offsets). Fill it in."
        )
    found = find_span(sentence, expression)
    if found is None:
        raise DataError(
            "E353",
            f"{where}: the expression {expression!r} does not occur in its sentence "
            f"{sentence[:80]!r}. Fix the expression, or give its start/end offsets.",
        )
    return found


def _split(where: str, value: Any) -> str | None:
    if value in (None, ""):
        return None
    split = SPLIT_ALIASES.get(str(value).strip().lower())
    if split is None:
        raise DataError(
            "E358",
            f"{where}: unknown split {value!r}. Expected train, dev (or validation) or test.",
        )
    return split
