"""``idiomkit lexicon review``: proposed entries checked against a lexicon and real text."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from idiomkit.cli.app import app
from idiomkit.lexicon import Lexicon, LexiconEntry
from idiomkit.lexicon.review import FREQUENT_PER_10K, review_entries

BASE = Lexicon([LexiconEntry("b-1", "spill the beans"), LexiconEntry("b-2", "go to the mat"),
                LexiconEntry("b-3", "go to"),
                LexiconEntry("b-4", "let the cat out of the bag")], "base")


def _proposed(*idioms: str) -> Lexicon:
    return Lexicon([LexiconEntry(f"p-{k}", idiom) for k, idiom in enumerate(idioms)], "new")


def test_spellings_and_word_for_word_overlaps_are_flagged():
    reports = review_entries(_proposed(
        "Spill-the-beans", "go to the mat for someone", "the cat out of the bag",
        "bite the dust", "bite the dust", "go to town"), BASE)
    by_flags = [(r["idiom"], r["flags"]) for r in reports]
    assert by_flags == [
        ("Spill-the-beans", ["duplicate"]),
        ("go to the mat for someone", ["contains"]),
        ("the cat out of the bag", ["inside"]),
        ("bite the dust", []),
        ("bite the dust", ["duplicate"]),  # twice in the file
        # "go to" holds only light words: not reported as held
        ("go to town", []),
    ]
    assert reports[0]["duplicate_of"] == ["spill the beans"]
    assert reports[1]["contains"] == ["go to the mat"]
    assert reports[2]["inside"] == ["let the cat out of the bag"]
    assert reports[4]["duplicate_of"] == ["bite the dust"]


def test_matches_in_general_text_and_idem_are_counted_with_examples():
    literal = "She had her say at the meeting and then we had to say goodbye."
    general = [(literal, None, ""), ("He will have his say.", None, "")]
    general += [("Nothing to see here.", None, "")] * 98
    idem = [("Let me have my say before I bite the dust.", "bite the dust"),
            ("They had their say.", "have one's say")]
    [report] = review_entries(_proposed("have one's say"), BASE, general, idem, examples=1)
    assert report["general"]["matches"] == 2
    assert report["general"]["per_10k"] == 200.0 >= FREQUENT_PER_10K
    assert report["general"]["examples"] == [{"text": literal, "matched": "had say"}]
    # a candidate beside another gold idiom counts, its own gold sentence does not
    assert report["idem_other_gold"] == 1
    assert report["flags"] == ["frequent", "idem"]


def test_a_general_sentence_leaves_its_own_target_span_out():
    text = "He spilled the beans."
    general = [(text, (3, 20), "")]
    [report] = review_entries(_proposed("spill the beans about"), BASE, general)
    assert report["general"]["matches"] == 0


def test_cli_review_on_the_shared_data(shared_data_dir, tmp_path):
    proposed = tmp_path / "new.csv"
    proposed.write_text("idiom,definition\nthrow a spanner in the works,Spoil a plan.\n"
                        "spill-the-beans,Tell a secret.\n", encoding="utf-8")
    runner = CliRunner()
    result = runner.invoke(app, ["lexicon", "review", str(proposed), "--json",
                                 "--data-dir", str(shared_data_dir)])
    assert result.exit_code == 0, result.output
    reports = json.loads(result.output)
    assert [r["idiom"] for r in reports] == ["throw a spanner in the works", "spill-the-beans"]
    assert reports[1]["flags"][0] == "duplicate"
    assert "spill the beans" in reports[1]["duplicate_of"]
    strict = runner.invoke(app, ["lexicon", "review", str(proposed), "--strict",
                                 "--data-dir", str(shared_data_dir)])
    assert strict.exit_code == 1
    assert "entries flagged" in strict.output
    missing = runner.invoke(app, ["lexicon", "review", str(tmp_path / "none.csv")])
    assert missing.exit_code == 3 and "E201" in missing.output
