from __future__ import annotations

import doctest

import pytest
from hypothesis import given
from hypothesis import strategies as st

from idiomkit.evaluate import metrics
from idiomkit.evaluate.metrics import (
    identification_scores,
    normalize_idiom,
    precision_recall_f1,
    span_exact_prf,
    span_token_overlap_prf,
)


def test_metrics_doctests_pass():
    result = doctest.testmod(metrics, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0


def test_precision_recall_f1_worked_example():
    scores = precision_recall_f1(tp=3, fp=1, fn=2)
    assert scores["precision"] == pytest.approx(0.75)
    assert scores["recall"] == pytest.approx(0.6)
    assert scores["f1"] == pytest.approx(2 * 0.75 * 0.6 / 1.35)
    assert all(type(v) is float for v in scores.values())


def test_precision_recall_f1_zero_counts_score_zero():
    assert precision_recall_f1(0, 0, 0) == {"precision": 0.0, "recall": 0.0, "f1": 0.0}
    assert precision_recall_f1(0, 3, 0)["precision"] == 0.0


def test_precision_recall_f1_rejects_negative_counts():
    with pytest.raises(ValueError, match="'fp' must be >= 0"):
        precision_recall_f1(1, -1, 0)


def test_normalize_idiom_ignores_case_whitespace_and_apostrophe_style():
    assert normalize_idiom("Pour  one’s HEART out\n") == normalize_idiom("pour one's heart out")


def test_identification_scores_all_candidates_view():
    # IDEM Table 4: 3 sentences; 4 predictions of which 2 correct; gold found in 2 of 3.
    scores = identification_scores(
        [["break the ice", "spill the beans"], ["hit the sack"], ["ice"]],
        ["spill the beans", "hit the sack", "break the ice"],
    )
    assert scores["precision"] == pytest.approx(2 / 4)
    assert scores["recall"] == pytest.approx(2 / 3)
    assert scores["f1"] == pytest.approx(2 * 0.5 * (2 / 3) / (0.5 + 2 / 3))
    # only the second sentence has the gold idiom ranked first
    assert scores["selection_accuracy"] == pytest.approx(1 / 3)
    assert (scores["n"], scores["n_predictions"], scores["n_correct"]) == (3, 4, 2)
    assert scores["no_prediction"] == 0


def test_identification_scores_counts_a_repeated_idiom_once():
    scores = identification_scores(
        [["spill the beans", "Spill the  beans", "ice"]], ["spill the beans"]
    )
    assert scores["n_predictions"] == 2
    assert scores["precision"] == pytest.approx(0.5)
    assert scores["selection_accuracy"] == 1.0


def test_identification_scores_empty_predictions_and_empty_input():
    scores = identification_scores([[], []], ["a", "b"])
    assert scores["precision"] == 0.0 and scores["recall"] == 0.0 and scores["f1"] == 0.0
    assert scores["no_prediction"] == 2
    assert identification_scores([], [])["f1"] == 0.0


def test_identification_scores_rejects_length_mismatch():
    with pytest.raises(ValueError, match="same length"):
        identification_scores([["a"]], ["a", "b"])


def test_span_exact_prf_matches_each_gold_span_once():
    # the duplicated prediction of (0, 5) matches the one gold span only once
    scores = span_exact_prf([[(0, 5), (0, 5)], [(2, 4)]], [[(0, 5)], [(2, 5)]])
    assert scores["precision"] == pytest.approx(1 / 3)
    assert scores["recall"] == pytest.approx(1 / 2)


def test_span_token_overlap_prf_counts_overlapping_characters_once():
    # predictions (0, 10) and (5, 15) cover 15 characters; gold (10, 20) covers 10; overlap 5
    scores = span_token_overlap_prf([[(0, 10), (5, 15)]], [[(10, 20)]])
    assert scores["precision"] == pytest.approx(5 / 15)
    assert scores["recall"] == pytest.approx(5 / 10)


def test_span_metrics_no_spans_score_zero():
    assert span_exact_prf([[]], [[]])["f1"] == 0.0
    assert span_token_overlap_prf([[]], [[(0, 3)]])["recall"] == 0.0


@pytest.mark.parametrize("function", [span_exact_prf, span_token_overlap_prf])
def test_span_metrics_reject_bad_input(function):
    with pytest.raises(ValueError, match="same documents"):
        function([[]], [])
    with pytest.raises(ValueError, match="0 <= start <= end"):
        function([[(5, 2)]], [[(0, 1)]])


spans = st.lists(
    st.tuples(st.integers(0, 50), st.integers(0, 10)).map(lambda p: (p[0], p[0] + p[1])),
    max_size=4,
)


@given(st.lists(st.tuples(spans, spans), max_size=5))
def test_span_scores_are_fractions_and_exact_implies_overlap(docs):
    pred = [p for p, _ in docs]
    gold = [g for _, g in docs]
    exact = span_exact_prf(pred, gold)
    overlap = span_token_overlap_prf(pred, gold)
    for scores in (exact, overlap):
        assert all(0.0 <= v <= 1.0 for v in scores.values())
    # identical predictions and gold score perfectly under both definitions when non-empty
    if any(end > start for doc in gold for start, end in doc):
        assert span_token_overlap_prf(gold, gold)["f1"] == pytest.approx(1.0)
        assert span_exact_prf(gold, gold)["f1"] == pytest.approx(1.0)
