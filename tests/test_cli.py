"""The ``idiomkit`` command line, through typer's CliRunner."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from idiomkit import __version__
from idiomkit.cli.app import app

runner = CliRunner()
SENTENCE = "He poured out his whole heart to a friend."


def invoke(*args: str, input: str | None = None):
    return runner.invoke(app, list(args), input=input)


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_version():
    result = invoke("--version")
    assert result.exit_code == 0
    assert result.stdout.strip() == f"idiomkit {__version__}"


def test_help_lists_commands_and_exit_codes():
    result = invoke("--help")
    assert result.exit_code == 0
    for word in ("find", "lexicon", "Exit codes", "some records failed"):
        assert word in result.stdout


def test_find_prints_document_json():
    result = invoke("find", SENTENCE)
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["text"] == SENTENCE and doc["version"] == 1
    assert "pour one's heart out" in [span["idiom"] for span in doc["idioms"]]
    span = next(s for s in doc["idioms"] if s["idiom"] == "pour one's heart out")
    assert SENTENCE[span["start"]:span["end"]] == span["text"]
    assert result.stdout.startswith('{\n  "text"')  # indent 2


def test_find_reads_stdin_for_dash():
    result = invoke("find", "-", input=SENTENCE + "\n")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["text"] == SENTENCE
    assert "pour one's heart out" in [span["idiom"] for span in doc["idioms"]]


def test_find_pretty_prints_a_table():
    result = invoke("find", "--pretty", SENTENCE)
    assert result.exit_code == 0, result.output
    for word in ("idiom", "matched text", "offsets", "score", "definition", "pour one's"):
        assert word in result.stdout
    with pytest.raises(json.JSONDecodeError):
        json.loads(result.stdout)


def test_find_include_filtered_adds_the_entries_slide_filters_out():
    text = "Their jobs were at stake after the merger."
    idioms = [s["idiom"] for s in json.loads(invoke("find", text).stdout)["idioms"]]
    assert "at stake" not in idioms
    result = invoke("find", "--include-filtered", text)
    assert result.exit_code == 0
    assert [s["idiom"] for s in json.loads(result.stdout)["idioms"]] == ["at stake"]


def test_everyday_idioms_slide_filters_out_are_matched_anyway():
    """SLIDE's filter-out flag is kept for all but a curated few in everyday figurative use."""
    from idiomkit.lexicon import load_lexicon
    from idiomkit.lexicon.build import MATCHED_DESPITE_SLIDE_FILTER

    for text, idiom in [("Their losses were only the tip of the iceberg.", "tip of the iceberg"),
                        ("The big firms take the lion's share of the profits.", "lion's share")]:
        found = json.loads(invoke("find", text).stdout)["idioms"]
        assert [s["idiom"] for s in found] == [idiom]
    entries = {e.idiom: e for e in load_lexicon()}
    assert all(not entries[i].filter_out and entries[i].extra["slide_filter_out"]
               for i in MATCHED_DESPITE_SLIDE_FILTER)
    assert sum(e.filter_out for e in entries.values()) == 103 - len(MATCHED_DESPITE_SLIDE_FILTER)


def test_find_every_group_keeps_several_idioms_per_sentence():
    """The IDEM-calibrated default keeps a sentence's best idiom and confident others; with
    --every-group a second idiom elsewhere in the sentence stays, however unsure; analyze
    takes the option too."""
    text = "It was about time Sebastian got his act together."

    def found(command, *args, text=text):
        result = invoke(command, *args, text)
        assert result.exit_code == 0, result.output
        return [s["idiom"] for s in json.loads(result.stdout)["idioms"]]

    assert found("find") == ["about time"]
    assert found("find", "--every-group") == ["about time", "get one's act together"]
    assert "get one's act together" in found("analyze", "--every-group", "--keep-literal")
    # overlapping candidates still go to the better one
    assert found("find", "--every-group", text="It gets to the point where I give up.") \
        == ["get to the point"]  # not also "get the point" or "to the point"


def test_find_min_confidence_drops_low_confidence_idioms():
    def found(*args):
        result = invoke("find", *args)
        assert result.exit_code == 0
        return [(s["idiom"], s["confidence"]) for s in json.loads(result.stdout)["idioms"]]

    everyday, idiom = "According to the coach, we played well.", "It was a piece of cake."
    [(name, confidence)] = found(everyday)
    assert name == "according to" and confidence < 0.5
    assert found("--min-confidence", "0.5", everyday) == []
    assert [name for name, _ in found("--min-confidence", "0.5", idiom)] == ["piece of cake"]
    assert invoke("find", "--min-confidence", "1.5", idiom).exit_code == 2


def test_find_empty_text_is_an_input_error():
    result = invoke("find", "   ")
    assert result.exit_code == 2
    assert "error: [E101]" in result.stderr


def test_find_needs_text_or_input():
    assert invoke("find").exit_code == 2
    assert invoke("find", "x", "--input", "in.txt").exit_code == 2


def test_unknown_method_is_a_config_error():
    result = invoke("find", SENTENCE, "--method", "nope")
    assert result.exit_code == 3
    assert "error: [E402]" in result.stderr and "idem-rules" in result.stderr


def test_batch_txt_writes_one_record_per_line_and_exit_code_1_on_errors(tmp_path):
    src = tmp_path / "in.txt"
    src.write_bytes(SENTENCE.encode() + b"\n\ncaf\xe9\nShe spilled the beans.\n")
    out = tmp_path / "out.jsonl"
    result = invoke("find", "--input", str(src), "--output", str(out), "--no-progress")
    assert result.exit_code == 1, result.output
    rows = read_jsonl(out)
    assert [row["id"] for row in rows] == [1, 2, 3, 4]
    assert "pour one's heart out" in [s["idiom"] for s in rows[0]["idioms"]]
    assert rows[1]["error"]["code"] == "E101" and rows[1]["line"] == 2
    assert rows[2]["error"]["code"] == "E105"
    assert "spill the beans" in [s["idiom"] for s in rows[3]["idioms"]]
    assert "4 records" in result.stderr and "2 failed" in result.stderr


def test_batch_jsonl_and_csv_succeed_with_exit_code_0(tmp_path):
    jsonl = tmp_path / "in.jsonl"
    jsonl.write_text(json.dumps({"id": "a", "text": SENTENCE}) + "\n", encoding="utf-8")
    csv_file = tmp_path / "in.csv"
    csv_file.write_text(f'id,sentence\nb,"{SENTENCE}"\n', encoding="utf-8")
    out1, out2 = tmp_path / "out1.jsonl", tmp_path / "out2.jsonl"
    assert invoke("find", "-i", str(jsonl), "-o", str(out1)).exit_code == 0
    result = invoke("find", "-i", str(csv_file), "-o", str(out2), "--text-column", "sentence")
    assert result.exit_code == 0, result.output
    one, two = read_jsonl(out1)[0], read_jsonl(out2)[0]
    assert (one["id"], two["id"]) == ("a", "b")
    assert one["idioms"] == two["idioms"]


def test_batch_to_stdout_and_input_format(tmp_path):
    src = tmp_path / "corpus.dat"
    src.write_text(SENTENCE + "\n", encoding="utf-8")
    result = invoke("find", "--input", str(src), "--input-format", "txt")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout.splitlines()[0])["id"] == 1


def test_batch_resume_appends_the_rest(tmp_path):
    src = tmp_path / "in.txt"
    src.write_text("".join(f"{SENTENCE} ({i})\n" for i in range(5)), encoding="utf-8")
    full, part = tmp_path / "full.jsonl", tmp_path / "part.jsonl"
    assert invoke("find", "-i", str(src), "-o", str(full)).exit_code == 0
    lines = full.read_bytes().splitlines(keepends=True)
    part.write_bytes(b"".join(lines[:2]) + lines[2][:10])
    result = invoke("find", "-i", str(src), "-o", str(part), "--resume")
    assert result.exit_code == 0, result.output
    assert part.read_bytes() == full.read_bytes()
    assert "2 already done" in result.stderr


def test_missing_input_file(tmp_path):
    out = tmp_path / "out.jsonl"
    result = invoke("find", "--input", str(tmp_path / "missing.txt"), "--output", str(out))
    assert result.exit_code in (2, 3)
    assert "error: [E103]" in result.stderr and "missing.txt" in result.stderr
    assert not out.exists()


def test_lexicon_with_an_empty_idiom_names_file_and_line(tmp_path):
    lexicon = tmp_path / "mine.csv"
    lexicon.write_text("idiom,definition\nspill the beans,tell\n,no idiom here\n", encoding="utf-8")
    result = invoke("find", SENTENCE, "--lexicon", str(lexicon))
    assert result.exit_code == 3
    assert "error: [E206]" in result.stderr
    assert "mine.csv, line 3" in result.stderr and "empty" in result.stderr


def test_user_lexicon_is_used(tmp_path):
    lexicon = tmp_path / "mine.jsonl"
    lexicon.write_text(
        json.dumps({"idiom": "spill the beans", "definition": "To tell a secret."}) + "\n",
        encoding="utf-8",
    )
    result = invoke("find", "She spilled the beans.", "--lexicon", str(lexicon))
    assert result.exit_code == 0, result.output
    spans = json.loads(result.stdout)["idioms"]
    assert [s["idiom"] for s in spans] == ["spill the beans"]
    assert spans[0]["definition"] == "To tell a secret."


def test_lexicon_info():
    result = invoke("lexicon", "info")
    assert result.exit_code == 0, result.output
    for word in ("entries", "with definition", "SLIDE", "CC BY-SA"):
        assert word in result.stdout


def test_lexicon_info_json_for_a_user_lexicon(tmp_path):
    lexicon = tmp_path / "mine.csv"
    lexicon.write_text("idiom,definition\nspill the beans,tell\nbreak a leg,\n", encoding="utf-8")
    result = invoke("lexicon", "info", "--lexicon", str(lexicon), "--json")
    assert result.exit_code == 0, result.output
    info = json.loads(result.stdout)
    assert (info["name"], info["entries"], info["with_definition"]) == ("mine", 2, 1)
    assert info["sources"] == {"mine.csv": 2}


def test_lexicon_build_without_data_is_a_data_error(tmp_path):
    result = invoke("lexicon", "build", "--data-dir", str(tmp_path / "nowhere"),
                    "--output", str(tmp_path / "lex.jsonl"))
    assert result.exit_code == 3
    assert "error: [E301]" in result.stderr


@pytest.mark.data
def test_lexicon_build_writes_the_lexicon(tmp_path):
    from idiomkit.datasets import resolve_data_dir
    from idiomkit.errors import DataError
    from idiomkit.lexicon.io import bundled_lexicon_path

    try:
        root = resolve_data_dir()
    except DataError as error:
        pytest.skip(str(error))
    if not (root / "slide").is_dir() or not (root / "idem").is_dir():
        pytest.skip("needs the slide/ and idem/ datasets")
    out = tmp_path / "lex.jsonl"
    result = invoke("lexicon", "build", "--data-dir", str(root), "--output", str(out))
    assert result.exit_code == 0, result.output
    assert "entries" in result.stdout
    assert len(out.read_text(encoding="utf-8").splitlines()) >= 5000
    # the committed lexicon is what the build makes now
    assert out.read_bytes() == bundled_lexicon_path().read_bytes()


def test_supplement_adds_no_second_form_of_a_slide_idiom():
    from idiomkit.lexicon.build import variant_key
    from idiomkit.lexicon.io import load_lexicon

    entries = list(load_lexicon())
    slide = {variant_key(e.idiom) for e in entries if e.source.startswith("SLIDE")}
    supplement = [e.idiom for e in entries if e.source == "idiomkit"]
    assert len(supplement) >= 30
    assert [i for i in supplement if variant_key(i) in slide] == []
    assert variant_key("the last straw") in slide  # SLIDE's "last straw" names it
