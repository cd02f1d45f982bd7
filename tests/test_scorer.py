"""The finder's candidate scorer: the general-text prior, hyphenation, and its calibration."""

from __future__ import annotations

import json
import math
from importlib import resources

import pytest

from idiomkit import Finder
from idiomkit.detect.general_text import count_matches, general_rate
from idiomkit.detect.lexicon_matcher import LexiconMatcher
from idiomkit.detect.scorer import FEATURES, CandidateScorer
from idiomkit.errors import ConfigError
from idiomkit.lexicon import load_lexicon


@pytest.fixture(scope="module")
def finder():
    return Finder()


def idioms(finder, text):
    return [span.idiom for span in finder.find(text).idioms]


@pytest.mark.parametrize(("text", "first", "everyday"), [
    ("According to the coach, we are back to square one.", "back to square one",
     "according to"),
    ("In fact, the whole plan went pear-shaped.", "go pear-shaped", "in fact"),
])
def test_an_everyday_phrase_gives_way_to_a_rarer_idiom(finder, text, first, everyday):
    found = idioms(finder, text)
    assert found[0] == first
    assert everyday not in found


def test_an_everyday_phrase_alone_is_still_found(finder):
    assert idioms(finder, "According to the coach, we played well.") == ["according to"]


def test_a_best_candidate_under_the_floor_is_left_out(finder, tmp_path):
    text = "It has been a long day."
    assert idioms(finder, text) == []
    params = json.loads(
        (resources.files("idiomkit.detect") / "data" / "finder_scorer.json").read_text("utf-8")
    )
    floor = params["floor"]
    # calibrated to cost at most 0.1% of IDEM train recall and of PIE/EPIE figurative uses
    assert 0 < floor < 0.1
    params["floor"] = 0.0
    path = tmp_path / "no_floor.json"
    path.write_text(json.dumps(params), encoding="utf-8")
    [span] = LexiconMatcher(load_lexicon(), scorer=path).match(text)
    assert span.idiom == "has-been" and span.confidence < floor


@pytest.mark.parametrize(("text", "idiom"), [
    ("They lived a hand-to-mouth existence for years.", "hand-to-mouth"),
    ("They lived hand to mouth for years.", "hand to mouth"),
])
def test_the_text_hyphenation_picks_between_spellings(finder, text, idiom):
    assert idioms(finder, text)[0] == idiom


def test_general_rates_are_read_by_idiom_text_any_case():
    scorer = CandidateScorer.load()
    common, rare, unknown = scorer.general_rates(["According to", "spill the beans", "zzz qqq"])
    assert common > 3.0  # "according to" matches in about 0.6% of general sentences
    assert rare < common
    assert unknown == 0.0


def test_general_rate_is_log_matches_per_ten_thousand_sentences():
    assert general_rate(0, 100) == 0.0
    assert general_rate(1, 10_000) == pytest.approx(math.log(2))
    assert general_rate(3, 0) == 0.0


def test_count_matches_leaves_out_the_target_idiom():
    matcher = LexiconMatcher(load_lexicon(), scorer=None, keep_nested=True)
    text = "According to Ann, he spilled the beans."
    start = text.index("spilled")
    counts = count_matches(matcher, [
        (text, (start, start + len("spilled the beans")), ""),  # target located by its span
        ("He spilled the beans, according to Ann.", None, "spill the beans"),  # by its name
        ("She spilled the beans.", None, ""),
    ])
    assert counts["according to"] == 2
    assert counts["spill the beans"] == 1


def test_a_scorer_file_for_other_features_is_refused(tmp_path):
    params = json.loads(
        (resources.files("idiomkit.detect") / "data" / "finder_scorer.json").read_text("utf-8")
    )
    params["features"] = list(FEATURES[:-2])
    path = tmp_path / "old.json"
    path.write_text(json.dumps(params), encoding="utf-8")
    with pytest.raises(ConfigError, match="E406"):
        CandidateScorer.load(path)


def test_calibrate_rebuilds_the_bundled_scorer(shared_data_dir, tmp_path):
    from idiomkit.detect.calibrate import calibrate

    fresh = calibrate(tmp_path / "scorer.json", data_dir=shared_data_dir, progress=False)
    bundled = json.loads(
        (resources.files("idiomkit.detect") / "data" / "finder_scorer.json").read_text("utf-8")
    )
    assert fresh["general_text"] == bundled["general_text"]
    assert fresh["coef"] == pytest.approx(bundled["coef"], abs=1e-9)
    assert fresh["min_confidence"] == bundled["min_confidence"]
    assert fresh["floor"] == bundled["floor"]
    # A guard against a broken calibration, not a target. It moves with the lexicon: each
    # entry added can be a real second idiom in an IDEM sentence ("pull my hair out" beside the
    # gold "about to"), which counts against selection (0.8907 at 10,229 entries, 0.8893 at
    # 11,593); an unscored ranking gets about 0.80.
    assert fresh["card"]["cv_metrics_on_train"]["selection_accuracy"] >= 0.885
    # No feature names an idiom, so idioms held out of fitting rank as well as seen ones (a
    # model that learnt idioms by their general-text rate would fall here).
    unseen = fresh["card"]["cv_metrics_unseen_idioms"]["selection_accuracy"]
    assert unseen >= fresh["card"]["cv_metrics_on_train"]["selection_accuracy"] - 0.01
