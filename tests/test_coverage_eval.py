"""Finder coverage (`idiomkit eval coverage`): the hit-rate metric and the harness."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from idiomkit.cli.app import app
from idiomkit.datasets import Dataset, Example
from idiomkit.evaluate import evaluate_coverage, span_hit_rate
from idiomkit.finder import Finder


def test_span_hit_rate_needs_overlap_and_sets_unlocated_apart():
    scores = span_hit_rate(
        [[(0, 3), (20, 25)], [(10, 12)], [(0, 40)], []],
        [(3, 20), (12, 15), None, (0, 4)],
    )
    # (0, 3) only touches (3, 20); (10, 12) only touches (12, 15): neither overlaps
    assert scores == {"hit_rate": 0.0, "hits": 0, "n": 3, "unlocated": 1}
    assert span_hit_rate([[(4, 5)]], [(3, 20)])["hit_rate"] == 1.0


def test_span_hit_rate_rejects_mismatched_documents_and_bad_offsets():
    with pytest.raises(ValueError, match="same documents"):
        span_hit_rate([[]], [(0, 1), (0, 1)])
    with pytest.raises(ValueError, match="gold_spans"):
        span_hit_rate([[]], [(5, 2)])


def test_coverage_counts_figurative_and_literal_uses_apart(tmp_path):
    lexicon = tmp_path / "lexicon.csv"
    lexicon.write_text("idiom,definition\nspill the beans,To reveal a secret.\n",
                       encoding="utf-8")
    examples = [
        Example("1", "He finally spilled the beans.", idiom="spill the beans",
                label="idiomatic", meta={"span": (11, 28)}),
        Example("2", "The beans were spilled on the floor.", idiom="spill the beans",
                label="literal"),  # span located from the idiom
        Example("3", "She kicked the bucket.", idiom="kick the bucket", label="idiomatic"),
        Example("4", "Nothing to see.", idiom="break the ice", label="literal"),
    ]
    dataset = Dataset("toy", "test", examples, files=[], checksum="sha256:0")
    results = evaluate_coverage(Finder(lexicon=lexicon), dataset, progress=False)
    metrics = results["metrics"]
    assert metrics["figurative"] == {"hit_rate": 0.5, "hits": 1, "n": 2, "unlocated": 0}
    assert metrics["literal"] == {"hit_rate": 1.0, "hits": 1, "n": 1, "unlocated": 1}
    assert metrics["all"]["hits"] == 2 and metrics["all"]["n"] == 3
    assert results["task"] == "coverage" and results["configuration"]["method"] == "default"


def test_coverage_command_on_epie_formal_dev():
    result = CliRunner().invoke(app, ["eval", "coverage", "--dataset", "epie-formal",
                                      "--split", "dev", "--format", "json", "--no-progress"])
    assert result.exit_code == 0, result.output
    metrics = json.loads(result.stdout)["metrics"]
    assert metrics["all"]["n"] == 302 and metrics["all"]["unlocated"] == 0
    # SLIDE alone finds 0.60 of EPIE Formal dev's figurative uses; with the supplement 0.88
    assert metrics["figurative"]["hit_rate"] >= 0.85


def test_locate_spans_finds_the_asked_idiom_or_nothing():
    from idiomkit.classify.data import locate_spans

    texts = ["The beans were spilled on the floor.",  # passive, next to another idiom
             "He pushed up the daisies in the end.",  # an idiom the bundled lexicon lacks
             "We met on the floor of the house."]     # the idiom is not there
    idioms = ["spill the beans", "push up the daisies", "kick the bucket"]
    assert locate_spans(texts, idioms) == [(4, 22), (3, 24), None]
