"""``idiomkit sample-negatives`` through typer's CliRunner, on tiny hand-written files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from idiomkit.cli.app import app

runner = CliRunner()

POSITIVES_CSV = """\
sentence,expression,label
He spilled the beans yesterday.,spilled the beans,idiomatic
She kicked the bucket last year.,kicked the bucket,figurative
It was a piece of cake.,piece of cake,literal
I was over the moon.,over the moon,idiomatic
"""
POOL_TXT = """\
They spill the beans on the floor.

The boy kicked the bucket across the yard.
Nothing to see here.

She kicked the bucket last year.
"""


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def invoke(*args: str | Path):
    return runner.invoke(app, ["sample-negatives", *map(str, args)])


def records(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


@pytest.fixture
def files(tmp_path):
    return write(tmp_path, "pos.csv", POSITIVES_CSV), write(tmp_path, "pool.txt", POOL_TXT)


def test_words_then_lemmas_with_spans_into_the_pool(files, tmp_path):
    positives, pool = files
    out = tmp_path / "neg" / "negatives.jsonl"
    result = invoke("--positives", positives, "--pool", pool, "--levels", "words,lemmas",
                    "--output", out)
    assert result.exit_code == 0, result.output
    found = records(out.read_text(encoding="utf-8"))
    pool_lines = POOL_TXT.splitlines()
    for record in found:
        start, end = record["span"]
        # the span indexes the pool sentence, and the record names the sentence's line
        assert record["text"] == pool_lines[record["pool_line"] - 1]
        assert record["text"][start:end] == record["expression"]
    # the literal row is not a positive; the positive sentence itself (line 6) is never drawn
    assert [(r["positive"], r["positive_id"], r["level"], r["expression"], r["pool_line"])
            for r in found] == [
        (0, "line-2", "lemmas", "spill the beans", 1),
        (1, "line-3", "words", "kicked the bucket", 3),
    ]
    assert found[0]["positive_text"] == "He spilled the beans yesterday."


def test_counts_table_on_stderr_and_jsonl_on_stdout(files):
    positives, pool = files
    result = invoke("--positives", positives, "--pool", pool, "--levels", "words,lemmas")
    assert result.exit_code == 0, result.output
    assert [r["level"] for r in records(result.stdout)] == ["lemmas", "words"]
    table = result.stderr.split()
    for level, count in (("words", "1"), ("lemmas", "1"), ("unmatched", "1")):
        assert table[table.index(level) + 1] == count
    assert "(blank lines skipped: 2)" in result.stderr and "pool: 4 sentences" in result.stderr


def test_json_summary_on_stdout_with_output_file(files, tmp_path):
    positives, pool = files
    out = tmp_path / "negatives.jsonl"
    result = invoke("--positives", positives, "--pool", pool, "--levels", "words",
                    "--format", "json", "-o", out, "--seed", "7")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["counts"] == {"words": 1, "unmatched": 2}
    assert summary["positives"] == 3 and summary["positives_skipped"] == {"literal rows": 1}
    assert summary["pool_sentences"] == 4 and summary["pool_blank_lines"] == 2
    assert summary["seed"] == 7 and len(records(out.read_text(encoding="utf-8"))) == 1


def test_pos_level_and_jsonl_files(tmp_path):
    # spaCy's tagger: "painted the fence" has the POS sequence of "broke the ice"
    positives = write(tmp_path, "pos.jsonl", json.dumps(
        {"text": "She broke the ice.", "start": 4, "end": 17}) + "\n")
    pool = write(tmp_path, "pool.jsonl", "\n".join(json.dumps({"text": t}) for t in (
        "Nothing here.", "I painted the fence.")) + "\n")
    result = invoke("--positives", positives, "--pool", pool)
    assert result.exit_code == 0, result.output
    (record,) = records(result.stdout)
    assert (record["level"], record["expression"], record["pool_line"]) == (
        "pos", "painted the fence", 2)


@pytest.mark.parametrize(("name", "text", "where"), [
    ("bad.csv", POSITIVES_CSV + "He was ill.,cold feet,idiomatic\n", "line 6"),
    ("bad.csv", "sentence,expression\nHe kicked the bucket.,\n", "line 2"),
    ("bad.csv", "sentence,start,end\nHe kicked the bucket.,3,99\n", "line 2"),
    ("bad.csv", "sentence,expression,label\nHe kicked the bucket.,kicked,maybe\n", "line 2"),
    ("bad.jsonl", '{"sentence": "He kicked the bucket.", "expression": "kicked"}\n\n{oops\n',
     "line 3"),
])
def test_bad_positives_row_names_file_and_line(files, tmp_path, name, text, where):
    _, pool = files
    result = invoke("--positives", write(tmp_path, name, text), "--pool", pool)
    assert result.exit_code == 3
    assert "error: [E483]" in result.stderr
    assert f"Positives file '{tmp_path / name}', {where}:" in result.stderr


def test_bad_positives_file_and_missing_pool(files, tmp_path):
    positives, pool = files
    result = invoke("--positives", write(tmp_path, "p.csv", "text,label\nx,idiomatic\n"),
                    "--pool", pool)
    assert result.exit_code == 3 and "error: [E482]" in result.stderr
    assert "sentence and expression (or start and end)" in result.stderr
    missing = tmp_path / "nowhere" / "pool.txt"
    result = invoke("--positives", positives, "--pool", missing)
    assert result.exit_code == 3 and "error: [E484]" in result.stderr
    assert f"Pool file '{missing}' does not exist" in result.stderr
    result = invoke("--positives", positives, "--pool", write(tmp_path, "p.jsonl", '{"t": 1}\n'))
    assert result.exit_code == 3 and "[E484]" in result.stderr and "line 1" in result.stderr


def test_source_options_checked(files, tmp_path):
    positives, pool = files
    assert "[E486]" in invoke("--pool", pool).stderr
    assert "[E486]" in invoke("--pool", pool, "--positives", positives,
                              "--dataset", "epie-formal").stderr
    assert "[E486]" in invoke("--pool", pool, "--positives", positives, "--split", "dev").stderr
    literal = write(tmp_path, "lit.csv", "sentence,expression,label\nA piece of cake.,piece of "
                    "cake,literal\n")
    result = invoke("--positives", literal, "--pool", pool)
    assert result.exit_code == 3 and "[E485]" in result.stderr and "1 literal rows" in result.stderr
    result = invoke("--positives", positives, "--pool", pool, "--levels", "words,stems")
    assert result.exit_code == 3 and "[E474]" in result.stderr


@pytest.mark.data
def test_dataset_positives(shared_data_dir, tmp_path):
    from idiomkit.datasets import load_dataset

    first = next(e for e in load_dataset("epie-formal", "test", shared_data_dir)
                 if e.label == "idiomatic" and e.meta.get("span"))
    start, end = first.meta["span"]
    pool = write(tmp_path, "pool.txt", f"Yes , {first.text[start:end]} , they said .\n")
    result = invoke("--dataset", "epie-formal", "--split", "test", "--pool", pool,
                    "--data-dir", shared_data_dir, "--levels", "words", "--format", "json",
                    "-o", tmp_path / "n.jsonl")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["counts"]["words"] == 1
    assert summary["positives"] + sum(summary["positives_skipped"].values()) == len(
        load_dataset("epie-formal", "test", shared_data_dir))
