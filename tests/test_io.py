"""Batch input readers and the JSONL batch runner (idiomkit.io)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from idiomkit.document import Document, Span
from idiomkit.errors import InputError
from idiomkit.io import (
    RecordReader,
    count_complete_lines,
    detect_format,
    read_records,
    run_batch,
)


def fake_process(text: str, id=None) -> Document:
    """Stands in for ``Finder().find``: same input checks, one fake span per 'beans'."""
    if not text.strip():
        raise InputError("E101", "The text is empty or only whitespace; give some text.")
    doc = Document(text, id=id)
    start = text.find("beans")
    if start >= 0:
        doc.idioms.append(Span(start, start + 5, "beans", idiom="spill the beans"))
    return doc


def write_bytes(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def summary_of(records):
    return [(r.line_no, r.id, r.text, r.error.code if r.error else None) for r in records]


# -- format detection -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "expected"),
    [("a.txt", "txt"), ("a.JSONL", "jsonl"), ("a.ndjson", "jsonl"), ("a.csv", "csv"),
     ("a.tsv", "tsv")],
)
def test_format_from_extension(name, expected):
    assert detect_format(name) == expected


def test_explicit_format_wins_and_unknown_is_an_input_error():
    assert detect_format("data.dat", "jsonl") == "jsonl"
    with pytest.raises(InputError) as exc:
        detect_format("data.dat")
    assert exc.value.code == "E104"
    with pytest.raises(InputError, match="Available: txt, jsonl, csv, tsv"):
        detect_format("a.txt", "xml")


# -- plain text --------------------------------------------------------------------------------


def test_txt_one_record_per_line_with_line_number_ids(tmp_path):
    path = write_bytes(tmp_path / "in.txt", b"First one.\r\nSecond one.\n\nLast, no newline")
    assert summary_of(read_records(path)) == [
        (1, 1, "First one.", None),
        (2, 2, "Second one.", None),
        (3, 3, "", None),  # kept: batch turns it into an E101 error record, keeping alignment
        (4, 4, "Last, no newline", None),
    ]


def test_txt_keeps_unicode_line_separators_inside_a_line(tmp_path):
    path = write_bytes(tmp_path / "in.txt", "a\u2028b\x0cc\rd\nnext\n".encode())
    assert [r.text for r in read_records(path)] == ["a\u2028b\x0cc\rd", "next"]


def test_txt_strips_utf8_bom(tmp_path):
    path = write_bytes(tmp_path / "in.txt", b"\xef\xbb\xbfHello\n")
    assert [r.text for r in read_records(path)] == ["Hello"]


def test_non_utf8_line_is_one_error_record_and_the_next_lines_are_fine(tmp_path):
    path = write_bytes(tmp_path / "in.txt", b"good one\ncaf\xe9 latin-1\nstill good\n")
    records = list(read_records(path))
    assert summary_of(records) == [
        (1, 1, "good one", None), (2, 2, None, "E105"), (3, 3, "still good", None),
    ]
    assert "Line 2 is not valid UTF-8" in records[1].error.message
    assert "0xe9" in records[1].error.message


# -- JSONL -------------------------------------------------------------------------------------


def test_jsonl_ids_default_to_line_numbers(tmp_path):
    path = write_bytes(
        tmp_path / "in.jsonl",
        b'{"id": "a", "text": "One."}\n{"text": "Two."}\n{"id": null, "text": "Three."}\n',
    )
    assert summary_of(read_records(path)) == [
        (1, "a", "One.", None), (2, 2, "Two.", None), (3, 3, "Three.", None),
    ]


def test_malformed_jsonl_lines_become_error_records(tmp_path):
    lines = [
        b'{"id": 1, "text": "Fine."}',
        b'{"id": 2, "text": "no closing brace"',
        b'["a list"]',
        b'{"id": 4, "body": "no text field"}',
        b'{"id": 5, "text": 42}',
        b'{"id": 6, "text": null}',
        b"[" * 100_000,  # deep nesting: RecursionError inside json, still one error record
        b'{"id": 8, "text": "caf\xe9"}',
        b"",  # blank lines hold no record
        b'{"id": 10, "text": "Fine again."}',
    ]
    path = write_bytes(tmp_path / "in.jsonl", b"\n".join(lines) + b"\n")
    assert summary_of(read_records(path)) == [
        (1, 1, "Fine.", None),
        (2, 2, None, "E106"),
        (3, 3, None, "E106"),
        (4, 4, None, "E107"),
        (5, 5, None, "E102"),
        (6, 6, None, "E102"),
        (7, 7, None, "E106"),
        (8, 8, None, "E105"),
        (10, 10, "Fine again.", None),
    ]
    messages = [r.error.message for r in read_records(path) if r.error]
    assert "Line 2 is not valid JSON" in messages[0]
    assert "no 'text' field" in messages[2] and "'body'" in messages[2]
    assert "got a number" in messages[3]


def test_jsonl_text_column_option(tmp_path):
    path = write_bytes(tmp_path / "in.jsonl", b'{"sentence": "Hi."}\n')
    assert [r.text for r in read_records(path, text_column="sentence")] == ["Hi."]


# -- CSV / TSV -------------------------------------------------------------------------------


def test_csv_with_id_and_quoted_multiline_field(tmp_path):
    data = b'id,text,other\nx1,"Hello, world.",a\nx2,"two\nlines",b\n,no id,c\n'
    path = write_bytes(tmp_path / "in.csv", data)
    assert summary_of(read_records(path)) == [
        (2, "x1", "Hello, world.", None),
        (3, "x2", "two\nlines", None),
        (5, 5, "no id", None),
    ]


def test_csv_text_column_option_and_tsv(tmp_path):
    path = write_bytes(tmp_path / "in.csv", b"sentence,label\nHe kicked the bucket.,1\n")
    assert [r.text for r in read_records(path, text_column="sentence")] == [
        "He kicked the bucket."
    ]
    tsv = write_bytes(tmp_path / "in.tsv", b"text\tid\nA, with comma\t7\n")
    assert summary_of(read_records(tsv)) == [(2, "7", "A, with comma", None)]


def test_csv_without_text_column_fails_before_reading(tmp_path):
    path = write_bytes(tmp_path / "in.csv", b"body,label\nx,1\n")
    with pytest.raises(InputError) as exc:
        RecordReader(path)
    assert exc.value.code == "E107"
    assert "columns: body, label" in exc.value.message
    assert "--text-column" in exc.value.message
    # an explicit column has no fallback
    with pytest.raises(InputError, match="no 'body' column"):
        RecordReader(write_bytes(tmp_path / "s.csv", b"sentence\nx\n"), text_column="body")


def test_sentence_is_read_where_the_default_text_is_absent(tmp_path):
    csv_path = write_bytes(tmp_path / "in.csv", b"id,sentence\n7,He kicked the bucket.\n")
    assert summary_of(read_records(csv_path)) == [(2, "7", "He kicked the bucket.", None)]
    jsonl = write_bytes(tmp_path / "in.jsonl", b'{"id": 1, "sentence": "Hi."}\n'
                        b'{"id": 2, "text": "Text.", "sentence": "Not this."}\n'
                        b'{"id": 3, "sentence": 5}\n')
    assert summary_of(read_records(jsonl)) == [
        (1, 1, "Hi.", None), (2, 2, "Text.", None), (3, 3, None, "E102"),
    ]
    assert "'sentence' must be a string" in list(read_records(jsonl))[2].error.message


def test_csv_bad_rows_become_error_records(tmp_path):
    data = b"id,label,text\n1,a,fine\n2,b\n3,c,caf\xe9\n4,d,fine again\n"
    path = write_bytes(tmp_path / "in.csv", data)
    assert summary_of(read_records(path)) == [
        (2, "1", "fine", None),
        (3, "2", None, "E107"),
        (4, "3", None, "E105"),
        (5, "4", "fine again", None),
    ]


def test_empty_csv_is_an_input_error(tmp_path):
    with pytest.raises(InputError, match="empty"):
        RecordReader(write_bytes(tmp_path / "in.csv", b""))


# -- long lines, missing files -----------------------------------------------------------


@pytest.mark.parametrize("fmt", ["txt", "jsonl", "csv"])
def test_one_megabyte_line(tmp_path, fmt):
    text = ("He spilled the beans. " * 50_000)[:1_000_000]
    if fmt == "txt":
        data = text.encode() + b"\nshort\n"
    elif fmt == "jsonl":
        data = (json.dumps({"text": text}) + "\n" + json.dumps({"text": "short"}) + "\n").encode()
    else:
        data = f'text\n"{text}"\nshort\n'.encode()
    path = write_bytes(tmp_path / f"in.{fmt}", data)
    records = list(read_records(path))
    assert [len(r.text) for r in records] == [1_000_000, 5]


def test_missing_input_file_raises_before_any_output(tmp_path):
    out = tmp_path / "out.jsonl"
    with pytest.raises(InputError) as exc:
        run_batch(fake_process, tmp_path / "nope.txt", out, progress=False)
    assert exc.value.code == "E103"
    assert "nope.txt" in exc.value.message and "does not exist" in exc.value.message
    assert not out.exists()


def test_unknown_extension_raises_before_any_output(tmp_path):
    src = write_bytes(tmp_path / "in.dat", b"x\n")
    out = tmp_path / "out.jsonl"
    with pytest.raises(InputError):
        run_batch(fake_process, src, out, progress=False)
    assert not out.exists()


# -- batch -----------------------------------------------------------------------------------


def test_batch_keeps_order_and_count_and_writes_error_records(tmp_path):
    src = write_bytes(
        tmp_path / "in.txt", b"He spilled the beans.\n\n   \ncaf\xe9\nNo idiom here.\n"
    )
    out = tmp_path / "out.jsonl"
    summary = run_batch(fake_process, src, out, progress=False)
    assert (summary.n_in, summary.n_ok, summary.n_errors, summary.skipped_resumed) == (5, 2, 3, 0)
    assert summary.exit_code == 1
    rows = read_jsonl(out)
    assert [row["id"] for row in rows] == [1, 2, 3, 4, 5]
    assert rows[0]["idioms"][0]["idiom"] == "spill the beans"
    assert rows[0]["version"] == 1
    empty = "The text is empty or only whitespace; give some text."
    assert rows[1] == {"id": 2, "line": 2, "error": {"code": "E101", "message": empty}}
    assert rows[2]["error"]["code"] == "E101"
    assert rows[3]["error"]["code"] == "E105"
    assert rows[4]["idioms"] == []


def test_batch_jsonl_keeps_ids(tmp_path):
    src = write_bytes(tmp_path / "in.jsonl", b'{"id": "doc-7", "text": "Beans."}\n{"text": 1}\n')
    out = tmp_path / "out.jsonl"
    run_batch(fake_process, src, out, progress=False)
    rows = read_jsonl(out)
    assert rows[0]["id"] == "doc-7" and rows[0]["text"] == "Beans."
    assert rows[1] == {"id": 2, "line": 2, "error": rows[1]["error"]}
    assert rows[1]["error"]["code"] == "E102"


def test_unexpected_exception_becomes_e199_and_the_run_goes_on(tmp_path):
    def flaky(text, id=None):
        if "boom" in text:
            raise RuntimeError("the model fell over")
        if "odd" in text:
            doc = Document(text, id=id)
            doc.meta["bad"] = object()  # not JSON-serialisable
            return doc
        return fake_process(text, id)

    src = write_bytes(tmp_path / "in.txt", b"one\nboom\nodd\nfour\n")
    out = tmp_path / "out.jsonl"
    summary = run_batch(flaky, src, out, progress=False)
    rows = read_jsonl(out)
    assert len(rows) == 4 and summary.n_errors == 2
    assert rows[1]["error"] == {
        "code": "E199", "message": "Unexpected RuntimeError: the model fell over"
    }
    assert rows[2]["error"]["code"] == "E199" and "TypeError" in rows[2]["error"]["message"]
    assert rows[3]["text"] == "four"


def test_lone_surrogates_from_json_escapes_do_not_crash_the_writer(tmp_path):
    src = write_bytes(tmp_path / "in.jsonl", b'{"text": "bad \\ud800 surrogate"}\n{"text": "ok"}\n')
    out = tmp_path / "out.jsonl"
    run_batch(fake_process, src, out, progress=False)
    rows = read_jsonl(out)
    assert rows[0]["text"] == "bad \ud800 surrogate" and rows[1]["text"] == "ok"


def test_output_dash_writes_to_stdout(tmp_path, capsysbinary):
    src = write_bytes(tmp_path / "in.txt", b"beans\n")
    run_batch(fake_process, src, "-", progress=False)
    rows = [json.loads(line) for line in capsysbinary.readouterr().out.splitlines()]
    assert rows[0]["id"] == 1


def test_output_must_not_be_the_input(tmp_path):
    src = write_bytes(tmp_path / "in.jsonl", b'{"text": "x"}\n')
    with pytest.raises(InputError, match="is the input file"):
        run_batch(fake_process, src, src, progress=False)
    assert src.read_bytes() == b'{"text": "x"}\n'


def test_output_folder_missing_is_an_input_error(tmp_path):
    src = write_bytes(tmp_path / "in.txt", b"x\n")
    with pytest.raises(InputError) as exc:
        run_batch(fake_process, src, tmp_path / "no" / "such" / "out.jsonl", progress=False)
    assert exc.value.code == "E109"


# -- resume ----------------------------------------------------------------------------------


def test_count_complete_lines_drops_a_partial_last_line(tmp_path):
    path = write_bytes(tmp_path / "out.jsonl", b'{"a": 1}\n{"a": 2}\n{"a": ')
    assert count_complete_lines(path) == 2
    assert path.read_bytes().endswith(b'{"a": ')  # untouched without truncate_partial
    assert count_complete_lines(path, truncate_partial=True) == 2
    assert path.read_bytes() == b'{"a": 1}\n{"a": 2}\n'
    assert count_complete_lines(tmp_path / "missing.jsonl") == 0
    assert count_complete_lines(write_bytes(tmp_path / "p", b"no newline at all")) == 0


@pytest.mark.parametrize("fmt", ["txt", "jsonl", "csv"])
def test_resume_after_interruption_matches_an_uninterrupted_run(tmp_path, fmt):
    texts = [f"Sentence {i} about beans." if i % 3 else f"Plain sentence {i}." for i in range(40)]
    texts[7] = "   "  # an error record inside the part that gets resumed over
    if fmt == "txt":
        data = "".join(t + "\n" for t in texts).encode()
    elif fmt == "jsonl":
        data = "".join(json.dumps({"id": f"r{i}", "text": t}) + "\n" for i, t in enumerate(texts))
        data = data.encode()
    else:
        data = ("id,text\n" + "".join(f"r{i},{t}\n" for i, t in enumerate(texts))).encode()
    src = write_bytes(tmp_path / f"in.{fmt}", data)
    full = tmp_path / "full.jsonl"
    run_batch(fake_process, src, full, progress=False)

    # Simulate a run killed while writing record 13: 12 complete lines plus half of the next.
    lines = full.read_bytes().splitlines(keepends=True)
    partial = tmp_path / "partial.jsonl"
    partial.write_bytes(b"".join(lines[:12]) + lines[12][: len(lines[12]) // 2])

    summary = run_batch(fake_process, src, partial, resume=True, progress=False)
    assert summary.skipped_resumed == 12
    assert summary.n_in == 40 and summary.n_ok + summary.n_errors == 28
    assert partial.read_bytes() == full.read_bytes()


def test_resume_when_output_is_complete_or_missing(tmp_path):
    src = write_bytes(tmp_path / "in.txt", b"a\nb\n")
    out = tmp_path / "out.jsonl"
    first = run_batch(fake_process, src, out, resume=True, progress=False)  # no output yet
    assert first.skipped_resumed == 0 and first.n_ok == 2
    again = run_batch(fake_process, src, out, resume=True, progress=False)
    assert (again.skipped_resumed, again.n_ok, again.n_errors) == (2, 0, 0)
    assert len(read_jsonl(out)) == 2


def test_resume_to_stdout_is_refused(tmp_path):
    src = write_bytes(tmp_path / "in.txt", b"a\n")
    with pytest.raises(InputError, match="resume"):
        run_batch(fake_process, src, "-", resume=True, progress=False)


def test_without_resume_existing_output_is_replaced(tmp_path):
    src = write_bytes(tmp_path / "in.txt", b"a\n")
    out = write_bytes(tmp_path / "out.jsonl", b"old\nold\nold\n")
    run_batch(fake_process, src, out, progress=False)
    assert len(read_jsonl(out)) == 1


def test_each_record_is_flushed_before_the_next_is_processed(tmp_path):
    src = write_bytes(tmp_path / "in.txt", b"a\nb\nc\n")
    out = tmp_path / "out.jsonl"
    seen = []

    def spy(text, id=None):
        seen.append(count_complete_lines(out))
        return fake_process(text, id)

    run_batch(spy, src, out, progress=False)
    assert seen == [0, 1, 2]


def test_process_many_batches_a_files_records_in_order(tmp_path):
    """With process_many, readable records go through in chunks: same output as one by one,
    unreadable lines still become error records in their place."""
    calls = []

    def many(texts, ids):
        calls.append(len(texts))
        return [fake_process(t, i) for t, i in zip(texts, ids)]

    lines = [f"Line {k} spilled the beans." for k in range(150)]
    lines[70] = '{"not json'
    src = write_bytes(tmp_path / "in.jsonl", "\n".join(
        line if line.startswith("{") else json.dumps({"id": f"r{k}", "text": line})
        for k, line in enumerate(lines)).encode() + b"\n")
    one, batched = tmp_path / "one.jsonl", tmp_path / "many.jsonl"
    run_batch(fake_process, src, one, progress=False)
    summary = run_batch(fake_process, src, batched, progress=False, process_many=many)
    assert read_jsonl(batched) == read_jsonl(one)
    assert (summary.n_ok, summary.n_errors) == (149, 1)
    assert read_jsonl(batched)[70]["error"]["code"] == "E106"
    assert calls == [64, 63, 22]  # chunks of 64 records, the unreadable one not sent


def test_a_failing_chunk_is_redone_record_by_record(tmp_path):
    """An empty text makes the whole process_many call fail; redone one by one, only that
    record fails."""
    def many(texts, ids):
        return [fake_process(t, i) for t, i in zip(texts, ids)]

    src = write_bytes(tmp_path / "in.txt", b"Beans here.\n\nMore beans.\nNone.\n")
    out = tmp_path / "out.jsonl"
    summary = run_batch(fake_process, src, out, progress=False, process_many=many)
    rows = read_jsonl(out)
    assert (summary.n_ok, summary.n_errors) == (3, 1)
    assert rows[1]["error"]["code"] == "E101" and rows[2]["text"] == "More beans."


def test_stdin_is_not_batched_so_a_pipe_streams(monkeypatch, tmp_path):
    import io
    import sys

    def many(texts, ids):
        raise AssertionError("stdin records go one by one")

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"Beans.\nMore beans.\n")))
    out = tmp_path / "out.jsonl"
    summary = run_batch(fake_process, "-", out, progress=False, process_many=many)
    assert summary.n_ok == 2 and len(read_jsonl(out)) == 2
