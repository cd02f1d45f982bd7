"""Loading lexicons: the bundled one, or a user's CSV / JSONL file.

A user lexicon needs an ``idiom`` column (or key) and may have ``definition``, ``id`` and
``sentiment``. Rows that cannot be used raise :class:`~idiomkit.errors.LexiconError` naming the
file and line, so a broken lexicon never silently shrinks.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable, Iterator, Sequence
from importlib import resources
from pathlib import Path

from ..errors import LexiconError
from .entry import LexiconEntry

#: The name of the lexicon that ships inside the package.
BUNDLED_LEXICON = "slide-wiktionary"
_BUNDLED_FILE = "idioms.jsonl"


class Lexicon(Sequence[LexiconEntry]):
    """An ordered, id-indexed collection of lexicon entries."""

    def __init__(self, entries: Iterable[LexiconEntry], name: str = "custom") -> None:
        self.entries = list(entries)
        self.name = name
        self._by_id = {e.id: e for e in self.entries}

    def __len__(self) -> int:
        return len(self.entries)

    def __getitem__(self, index):  # type: ignore[override]
        return self.entries[index]

    def get(self, idiom_id: str) -> LexiconEntry | None:
        return self._by_id.get(idiom_id)

    def __repr__(self) -> str:
        return f"Lexicon(name={self.name!r}, entries={len(self.entries)})"


def bundled_lexicon_path() -> Path:
    return Path(str(resources.files("idiomkit.lexicon") / "data" / _BUNDLED_FILE))


def load_lexicon(path: str | Path | None = None) -> Lexicon:
    """Load the bundled lexicon (``path=None``) or a user lexicon file (CSV or JSONL)."""
    if path is None or str(path) == BUNDLED_LEXICON:
        bundled = bundled_lexicon_path()
        entries = [LexiconEntry(**row) for _, row in _read_jsonl(bundled)]
        return Lexicon(entries, name=BUNDLED_LEXICON)
    path = Path(path)
    if not path.is_file():
        raise LexiconError(
            "E201", f"Lexicon file '{path}' does not exist. Give a CSV or JSONL file with an "
            "'idiom' column, or leave --lexicon out to use the bundled lexicon."
        )
    suffix = path.suffix.lower()
    if suffix in (".jsonl", ".json", ".ndjson"):
        rows = _read_jsonl(path)
    elif suffix in (".csv", ".tsv"):
        rows = _read_csv(path, delimiter="\t" if suffix == ".tsv" else ",")
    else:
        raise LexiconError(
            "E202", f"Lexicon file '{path}' has an unknown extension '{suffix}'. "
            "Use .csv, .tsv or .jsonl."
        )
    return Lexicon(_entries_from_rows(rows, path), name=path.stem)


def _read_jsonl(path: Path) -> Iterator[tuple[int, dict]]:
    with open(path, encoding="utf-8") as handle:
        for line_no, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                raise LexiconError(
                    "E203", f"{path}, line {line_no}: not valid JSON ({exc.msg}). "
                    "Each line must be one JSON object such as {\"idiom\": \"spill the beans\"}."
                ) from None
            if not isinstance(row, dict):
                raise LexiconError(
                    "E203", f"{path}, line {line_no}: expected a JSON object, got "
                    f"{type(row).__name__}."
                )
            yield line_no, row


def _read_csv(path: Path, delimiter: str) -> Iterator[tuple[int, dict]]:
    try:
        with open(path, encoding="utf-8", newline="") as handle:
            reader = csv.DictReader(handle, delimiter=delimiter)
            if reader.fieldnames is None or "idiom" not in [f.strip() for f in reader.fieldnames]:
                raise LexiconError(
                    "E204", f"{path}, line 1: the header must name an 'idiom' column "
                    f"(found {reader.fieldnames}). Optional columns: definition, id, sentiment."
                )
            for row in reader:
                yield reader.line_num, {k.strip(): v for k, v in row.items() if k}
    except UnicodeDecodeError as exc:
        raise LexiconError("E205", f"{path}: not UTF-8 text ({exc.reason}). Save it as UTF-8.") \
            from None


def _entries_from_rows(rows: Iterable[tuple[int, dict]], path: Path) -> Iterator[LexiconEntry]:
    seen: dict[str, int] = {}
    for line_no, row in rows:
        idiom = str(row.get("idiom") or "").strip()
        if not idiom:
            raise LexiconError(
                "E206", f"{path}, line {line_no}: the idiom is empty. Every row needs an idiom."
            )
        if not any(ch.isalnum() for ch in idiom):
            raise LexiconError(
                "E207", f"{path}, line {line_no}: idiom {idiom!r} has no letters or digits."
            )
        entry_id = str(row.get("id") or f"{path.stem}-{line_no}")
        if entry_id in seen:
            raise LexiconError(
                "E208", f"{path}, line {line_no}: id {entry_id!r} was already used on line "
                f"{seen[entry_id]}. Ids must be unique."
            )
        seen[entry_id] = line_no
        definition = row.get("definition")
        yield LexiconEntry(
            id=entry_id,
            idiom=idiom,
            definition=str(definition).strip() or None if definition else None,
            sentiment=(row.get("sentiment") or None),
            source=str(row.get("source") or path.name),
            license=str(row.get("license") or ""),
            url=row.get("url") or None,
            filter_out=bool(row.get("filter_out", False)),
        )
