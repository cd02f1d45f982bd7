"""Streaming input readers for batch mode: plain text, JSONL and CSV/TSV.

Every reader yields one :class:`Record` per input record, in order. A record that cannot be
read (a line that is not UTF-8, a malformed JSON line, a missing or non-string text) becomes a
record with ``error`` set, never an exception, so one bad line costs one output line and
nothing more. Problems with the whole file (missing file, unknown format, a CSV header without
the text column) raise :class:`~idiomkit.errors.InputError` when the reader is opened, before
any output is written.

Files are read as bytes and decoded line by line; there is no limit on line length.

>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "in.jsonl")
>>> _ = open(path, "w").write('{"id": "a", "text": "Break a leg!"}\\n{"text": 3}\\n')
>>> [(r.line_no, r.id, r.text, r.error and r.error.code) for r in read_records(path)]
[(1, 'a', 'Break a leg!', None), (2, 2, None, 'E102')]
"""

from __future__ import annotations

import csv
import json
import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from ..errors import IdiomkitError, InputError

#: Input formats batch mode reads, and the extensions that select them.
INPUT_FORMATS = ("txt", "jsonl", "csv", "tsv")
_EXTENSIONS = {
    ".txt": "txt",
    ".text": "txt",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".csv": "csv",
    ".tsv": "tsv",
}
_FORMAT_ALIASES = {"text": "txt", "ndjson": "jsonl", "json": "jsonl"}
_BOM = b"\xef\xbb\xbf"
#: ``-`` as an input path means standard input.
STDIN = "-"


@dataclass(frozen=True)
class Record:
    """One input record: where it came from, its id, and its text or why it has none."""

    line_no: int
    id: Any
    text: str | None
    error: IdiomkitError | None = None


def detect_format(path: str | Path, input_format: str | None = None) -> str:
    """The input format: ``input_format`` if given, else from the file extension.

    >>> detect_format("corpus.ndjson"), detect_format("x.dat", "csv"), detect_format("-")
    ('jsonl', 'csv', 'txt')
    """
    if input_format is not None:
        fmt = _FORMAT_ALIASES.get(input_format.lower(), input_format.lower())
        if fmt not in INPUT_FORMATS:
            raise InputError(
                "E104", f"Unknown input format '{input_format}'. "
                f"Available: {', '.join(INPUT_FORMATS)}."
            )
        return fmt
    if str(path) == STDIN:
        return "txt"
    suffix = Path(path).suffix.lower()
    if suffix not in _EXTENSIONS:
        raise InputError(
            "E104", f"Cannot tell the format of '{path}' from its extension '{suffix}'. "
            f"Use .txt, .jsonl, .ndjson, .csv or .tsv, or pass --input-format "
            f"({', '.join(INPUT_FORMATS)})."
        )
    return _EXTENSIONS[suffix]


def raise_csv_field_limit() -> None:
    """Let the csv module read fields of any size (its default limit is 128 KiB)."""
    limit = sys.maxsize
    while True:
        try:
            csv.field_size_limit(limit)
            return
        except OverflowError:  # C long is 32 bits on some platforms
            limit //= 2


#: the text field read when the default ``text`` is absent (IDEM's CSV files and many corpora
#: call it so); an explicit ``text_column`` has no fallback
TEXT_FALLBACK = "sentence"


class RecordReader:
    """Reads records from a file (or ``-`` for stdin) in one of :data:`INPUT_FORMATS`.

    Opening checks the whole file's preconditions; iterating yields :class:`Record` objects.
    ``bytes_read`` and ``size`` let a caller show progress. Use as a context manager. With the
    default ``text_column``, a record or header without ``text`` is read from ``sentence``.
    """

    def __init__(
        self,
        path: str | Path,
        input_format: str | None = None,
        *,
        text_column: str = "text",
        id_column: str = "id",
    ) -> None:
        self.path = str(path)
        self.format = detect_format(path, input_format)
        self.text_column = text_column
        # the field read where the text column is absent (none for a column the user named)
        self._text_fallback = TEXT_FALLBACK if text_column == "text" else None
        self.id_column = id_column
        self.bytes_read = 0
        self.size: int | None = None
        self._handle = self._open()
        self._header: list[str] = []
        self._csv_rows: Iterator[list[str]] | None = None
        self._feeder: _LineFeeder | None = None
        if self.format in ("csv", "tsv"):
            try:
                self._read_csv_header()
            except BaseException:
                self.close()
                raise

    def _open(self) -> IO[bytes]:
        if self.path == STDIN:
            return sys.stdin.buffer
        path = Path(self.path)
        if not path.exists():
            raise InputError(
                "E103", f"Input file '{path}' does not exist. Check the path (relative paths "
                f"start from '{Path.cwd()}')."
            )
        if not path.is_file():
            raise InputError("E103", f"Input '{path}' is not a file. Give one input file.")
        try:
            handle = open(path, "rb")
        except OSError as exc:
            raise InputError(
                "E103", f"Cannot read input file '{path}': {exc.strerror}."
            ) from None
        self.size = os.fstat(handle.fileno()).st_size
        return handle

    def close(self) -> None:
        if self._handle is not sys.stdin.buffer:
            self._handle.close()

    def __enter__(self) -> RecordReader:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __iter__(self) -> Iterator[Record]:
        if self.format == "txt":
            return self._iter_txt()
        if self.format == "jsonl":
            return self._iter_jsonl()
        return self._iter_csv()

    # -- plain text and JSONL: one record per physical line -------------------------------

    def _lines(self) -> Iterator[tuple[int, str | None, UnicodeDecodeError | None]]:
        """(line number, decoded line without terminator or None, decode error)."""
        for line_no, raw in enumerate(self._handle, start=1):
            self.bytes_read += len(raw)
            if line_no == 1 and raw.startswith(_BOM):
                raw = raw[len(_BOM):]
            raw = raw.rstrip(b"\n").rstrip(b"\r")
            try:
                yield line_no, raw.decode("utf-8"), None
            except UnicodeDecodeError as exc:
                yield line_no, None, exc

    def _iter_txt(self) -> Iterator[Record]:
        for line_no, line, exc in self._lines():
            if exc is not None:
                yield Record(line_no, line_no, None, _not_utf8(line_no, exc))
            else:
                yield Record(line_no, line_no, line)

    def _iter_jsonl(self) -> Iterator[Record]:
        for line_no, line, exc in self._lines():
            if exc is not None:
                yield Record(line_no, line_no, None, _not_utf8(line_no, exc))
            elif line is not None and line.strip():  # blank lines hold no record
                yield self._jsonl_record(line_no, line)

    def _jsonl_record(self, line_no: int, line: str) -> Record:
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            return _error(
                line_no, line_no, "E106", f"Line {line_no} is not valid JSON ({exc.msg} at "
                f"column {exc.colno}). Each line must be one object like "
                '{"id": 1, "text": "..."}.'
            )
        except (ValueError, RecursionError) as exc:
            return _error(line_no, line_no, "E106", f"Line {line_no} is not valid JSON ({exc}).")
        if not isinstance(obj, dict):
            return _error(
                line_no, line_no, "E106", f"Line {line_no} is a JSON {type(obj).__name__}, not "
                'an object. Each line must be one object like {"id": 1, "text": "..."}.'
            )
        record_id = obj.get(self.id_column)
        if record_id is None:
            record_id = line_no
        column = self.text_column
        if column not in obj and self._text_fallback in obj:
            column = self._text_fallback
        if column not in obj:
            found = ", ".join(repr(k) for k in list(obj)[:10]) or "none"
            return _error(
                line_no, record_id, "E107", f"Line {line_no} has no '{self.text_column}' field "
                f"(fields: {found}). Add it, or name the text field with --text-column."
            )
        text = obj[column]
        if not isinstance(text, str):
            return _error(
                line_no, record_id, "E102", f"Line {line_no}: '{column}' must be a "
                f"string, got {_json_type(text)}."
            )
        return Record(line_no, record_id, text)

    # -- CSV / TSV: a record may span several physical lines (quoted newlines) ------------

    def _read_csv_header(self) -> None:
        raise_csv_field_limit()
        self._feeder = _LineFeeder(self._handle, self)
        delimiter = "\t" if self.format == "tsv" else ","
        self._csv_rows = csv.reader(self._feeder, delimiter=delimiter)
        try:
            header = next(self._csv_rows)
        except StopIteration:
            raise InputError(
                "E107", f"Input file '{self.path}' is empty; a {self.format.upper()} file needs "
                f"a header row with a '{self.text_column}' column."
            ) from None
        except csv.Error as exc:
            raise InputError(
                "E108", f"{self.path}, line 1: cannot read the header row ({exc})."
            ) from None
        if self._feeder.bad:
            line_no, exc = next(iter(self._feeder.bad.items()))
            raise InputError("E105", f"{self.path}: {_not_utf8(line_no, exc).message}")
        self._header = [name.strip() for name in header]
        if self.text_column not in self._header and self._text_fallback in self._header:
            self.text_column = self._text_fallback
        if self.text_column not in self._header:
            raise InputError(
                "E107", f"{self.path}, line 1: the header has no '{self.text_column}' column "
                f"(columns: {', '.join(self._header) or 'none'}). Name the text column with "
                "--text-column."
            )

    def _iter_csv(self) -> Iterator[Record]:
        feeder, rows = self._feeder, self._csv_rows
        if feeder is None or rows is None:  # pragma: no cover - set in __init__ for CSV
            return
        text_idx = self._header.index(self.text_column)
        id_idx = self._header.index(self.id_column) if self.id_column in self._header else None
        last_line = feeder.line_no
        while True:
            try:
                row = next(rows)
            except StopIteration:
                return
            except csv.Error as exc:
                start, last_line = last_line + 1, feeder.line_no
                yield _error(start, start, "E108", f"Line {start}: not valid CSV ({exc}).")
                continue
            start, last_line = last_line + 1, feeder.line_no
            if not row:  # a blank line holds no record
                continue
            record_id: Any = start
            if id_idx is not None and id_idx < len(row) and row[id_idx].strip():
                record_id = row[id_idx]
            bad = [n for n in range(start, last_line + 1) if n in feeder.bad]
            if bad:
                yield Record(start, record_id, None, _not_utf8(bad[0], feeder.bad[bad[0]]))
            elif text_idx >= len(row):
                yield _error(
                    start, record_id, "E107", f"Line {start} has {len(row)} fields but the "
                    f"'{self.text_column}' column is field {text_idx + 1} of the header."
                )
            else:
                yield Record(start, record_id, row[text_idx])


class _LineFeeder:
    """Feeds csv.reader decoded physical lines, noting which ones were not valid UTF-8."""

    def __init__(self, handle: IO[bytes], reader: RecordReader) -> None:
        self._lines = iter(handle)
        self._reader = reader
        self.line_no = 0
        self.bad: dict[int, UnicodeDecodeError] = {}

    def __iter__(self) -> _LineFeeder:
        return self

    def __next__(self) -> str:
        raw = next(self._lines)
        self.line_no += 1
        self._reader.bytes_read += len(raw)
        if self.line_no == 1 and raw.startswith(_BOM):
            raw = raw[len(_BOM):]
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            self.bad[self.line_no] = exc
            return raw.decode("utf-8", errors="replace")


def read_records(
    path: str | Path,
    input_format: str | None = None,
    *,
    text_column: str = "text",
    id_column: str = "id",
) -> Iterator[Record]:
    """Yield the records of ``path`` in order (see :class:`RecordReader`)."""
    with RecordReader(path, input_format, text_column=text_column, id_column=id_column) as reader:
        yield from reader


def _error(line_no: int, record_id: Any, code: str, message: str) -> Record:
    return Record(line_no, record_id, None, InputError(code, message))


def _not_utf8(line_no: int, exc: UnicodeDecodeError) -> InputError:
    byte = exc.object[exc.start:exc.start + 1].hex()
    return InputError(
        "E105", f"Line {line_no} is not valid UTF-8 (byte 0x{byte} at position {exc.start}: "
        f"{exc.reason}). Re-encode the file as UTF-8, e.g. iconv -f latin1 -t utf-8."
    )


def _json_type(value: object) -> str:
    names = {dict: "an object", list: "an array", bool: "a boolean", int: "a number",
             float: "a number", type(None): "null"}
    return names.get(type(value), type(value).__name__)
