"""Batch mode: stream records through a ``text -> Document`` function into JSONL.

One output line per input record, in input order: the Document JSON (with the record's ``id``)
or an error record ``{"id", "line", "error": {"code", "message"}}``. A bad record never stops
the run. Output is flushed after each record, or after each chunk of :data:`CHUNK_RECORDS`
when a ``process_many`` (texts, ids -> Documents) batches a file's records (an ``analyze``
model encodes many sentences at once far faster than one by one); an interrupted run loses at
most the chunk in flight, and ``resume=True`` carries on where the output file ends. A chunk
that fails as a whole is redone record by record, so one bad record fails alone.

>>> import tempfile, os
>>> from idiomkit.document import Document
>>> tmp = tempfile.mkdtemp()
>>> src, dst = os.path.join(tmp, "in.txt"), os.path.join(tmp, "out.jsonl")
>>> _ = open(src, "w").write("Break a leg.\\nHe spilled the beans.\\n")
>>> run_batch(lambda text, id: Document(text, id=id), src, dst, progress=False)
BatchSummary(n_in=2, n_ok=2, n_errors=0, skipped_resumed=0)
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from tqdm import tqdm

from ..document import Document
from ..errors import IdiomkitError, InputError
from .readers import STDIN, Record, RecordReader

#: ``process(text, id) -> Document``, e.g. ``Finder().find``.
Process = Callable[[str, Any], Document]
#: ``process_many(texts, ids) -> Documents``, e.g. ``Analyzer().analyze_many``.
ProcessMany = Callable[[list[str], list[Any]], list[Document]]
#: records per ``process_many`` call (files only: stdin keeps one record per call so that a
#: pipe's output follows its input line by line)
CHUNK_RECORDS = 64
#: ``-`` as an output path means standard output.
STDOUT = "-"
_CHUNK = 1 << 16


@dataclass(frozen=True)
class BatchSummary:
    """What a batch run did.

    ``n_in`` counts every input record read, including the ``skipped_resumed`` ones that an
    earlier run had already written; ``n_ok`` and ``n_errors`` count the records this run wrote.
    """

    n_in: int
    n_ok: int
    n_errors: int
    skipped_resumed: int

    @property
    def exit_code(self) -> int:
        """0 when every record written by this run succeeded, else 1."""
        return 1 if self.n_errors else 0


def run_batch(
    process: Process,
    input_path: str | Path,
    output_path: str | Path,
    *,
    input_format: str | None = None,
    resume: bool = False,
    progress: bool = True,
    text_column: str = "text",
    id_column: str = "id",
    process_many: ProcessMany | None = None,
) -> BatchSummary:
    """Run ``process`` over every record of ``input_path`` and write JSONL to ``output_path``.

    ``input_path`` / ``output_path`` may be ``-`` for stdin / stdout. Problems with the input
    file as a whole raise :class:`~idiomkit.errors.InputError` before any output is written.
    """
    with RecordReader(
        input_path, input_format, text_column=text_column, id_column=id_column
    ) as reader:
        skip = 0
        many = process_many if reader.path != STDIN else None
        if str(output_path) == STDOUT:
            if resume:
                raise InputError(
                    "E111", "--resume needs an output file to continue; it cannot resume stdout."
                )
            sys.stdout.flush()
            out: Any = getattr(sys.stdout, "buffer", None) or _TextToBytes(sys.stdout)
            return _run(process, reader, out, skip, progress, many)
        output = Path(output_path)
        _check_distinct(reader.path, output)
        if resume:
            skip = count_complete_lines(output, truncate_partial=True)
        try:
            handle = open(output, "ab" if resume else "wb")
        except OSError as exc:
            raise InputError(
                "E109", f"Cannot write output file '{output}': {exc.strerror}. Check that its "
                "folder exists and is writable."
            ) from None
        with handle:
            return _run(process, reader, handle, skip, progress, many)


def _run(
    process: Process, reader: RecordReader, out: Any, skip: int, progress: bool,
    process_many: ProcessMany | None = None,
) -> BatchSummary:
    n_in = n_ok = n_errors = 0
    disable = not progress or not _is_tty(sys.stderr)
    chunk = CHUNK_RECORDS if process_many is not None else 1
    pending: list[Record] = []

    def write_pending() -> None:
        nonlocal n_ok, n_errors
        for obj, ok in process_records(process, pending, process_many):
            out.write(_encode(obj))
            n_ok += ok
            n_errors += not ok
        out.flush()
        pending.clear()

    with tqdm(
        total=reader.size, unit="B", unit_scale=True, unit_divisor=1024, desc="idiomkit",
        file=sys.stderr, disable=disable, dynamic_ncols=True,
    ) as bar:
        seen_bytes = 0
        for record in reader:
            n_in += 1
            if n_in > skip:
                pending.append(record)
                if len(pending) >= chunk:
                    write_pending()
            if not disable:
                bar.update(reader.bytes_read - seen_bytes)
                seen_bytes = reader.bytes_read
                bar.set_postfix(records=n_in, errors=n_errors, refresh=False)
        write_pending()
    return BatchSummary(n_in=n_in, n_ok=n_ok, n_errors=n_errors, skipped_resumed=min(skip, n_in))


def process_records(process: Process, records: list[Record],
                    process_many: ProcessMany | None = None) -> list[tuple[dict[str, Any], bool]]:
    """:func:`process_record` for each record, the readable ones through one ``process_many``
    call when given; if that call fails, every record goes through ``process`` on its own."""
    readable = [r for r in records if r.error is None]
    if process_many is None or len(readable) < 2:
        return [process_record(process, r) for r in records]
    try:
        docs = process_many([r.text or "" for r in readable], [r.id for r in readable])
        done = {id(r): (_output(r, doc), True) for r, doc in zip(readable, docs, strict=True)}
    except Exception:  # noqa: BLE001 - one record's failure must not fail the others
        return [process_record(process, r) for r in records]
    return [done[id(r)] if r.error is None else (error_record(r, r.error), False)
            for r in records]


def process_record(process: Process, record: Record) -> tuple[dict[str, Any], bool]:
    """The output object for one record and whether it succeeded; never raises ``Exception``."""
    if record.error is not None:
        return error_record(record, record.error), False
    try:
        data = _output(record, process(record.text or "", record.id))
    except IdiomkitError as exc:
        return error_record(record, exc), False
    except Exception as exc:  # noqa: BLE001 - keep the run going, but keep the evidence
        error = IdiomkitError("E199", f"Unexpected {type(exc).__name__}: {exc}")
        return error_record(record, error), False
    return data, True


def _output(record: Record, doc: Document) -> dict[str, Any]:
    """The Document's JSON object, with the record's id; raises if it cannot be serialised."""
    data = doc.to_dict()
    json.dumps(data)  # fail here, per record, if a component put something unserialisable
    if data.get("id") is None:
        data = {"id": record.id, **data}
    return data


def error_record(record: Record, error: IdiomkitError) -> dict[str, Any]:
    """``{"id", "line", "error": {"code", "message"}}`` for a record that failed."""
    return {"id": record.id, "line": record.line_no, "error": error.to_record()}


def count_complete_lines(path: str | Path, *, truncate_partial: bool = False) -> int:
    """Number of newline-terminated lines in ``path`` (0 if it does not exist).

    With ``truncate_partial``, a trailing line without its newline (a write cut short) is
    removed from the file first.
    """
    path = Path(path)
    if not path.exists():
        return 0
    with open(path, "r+b" if truncate_partial else "rb") as handle:
        size = handle.seek(0, os.SEEK_END)
        end = _last_newline_end(handle, size)
        if truncate_partial and end < size:
            handle.truncate(end)
        handle.seek(0)
        count, pos = 0, 0
        while pos < end:
            chunk = handle.read(min(_CHUNK, end - pos))
            if not chunk:
                break
            count += chunk.count(b"\n")
            pos += len(chunk)
    return count


def _last_newline_end(handle: IO[bytes], size: int) -> int:
    """Offset just after the file's last newline (0 if there is none)."""
    pos = size
    while pos > 0:
        start = max(0, pos - _CHUNK)
        handle.seek(start)
        index = handle.read(pos - start).rfind(b"\n")
        if index >= 0:
            return start + index + 1
        pos = start
    return 0


def _encode(obj: dict[str, Any]) -> bytes:
    try:
        return (json.dumps(obj, ensure_ascii=False) + "\n").encode("utf-8")
    except UnicodeEncodeError:  # lone surrogates (from "\ud800" escapes in JSON input)
        return (json.dumps(obj, ensure_ascii=True) + "\n").encode("ascii")


def _check_distinct(input_path: str, output: Path) -> None:
    if input_path == STDIN or not output.exists():
        return
    if os.path.samefile(input_path, output):
        raise InputError(
            "E111", f"The output file '{output}' is the input file; writing would destroy the "
            "input. Choose another output path."
        )


def _is_tty(stream: object) -> bool:
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except ValueError:  # closed stream
        return False


class _TextToBytes:
    """Lets a text stream without ``.buffer`` (some test harnesses) take UTF-8 bytes."""

    def __init__(self, stream: IO[str]) -> None:
        self._stream = stream

    def write(self, data: bytes) -> int:
        return self._stream.write(data.decode("utf-8"))

    def flush(self) -> None:
        self._stream.flush()
