"""Metrics for figurative-vs-literal classification, as the papers name them.

Labels are 1 = figurative (idiomatic) and 0 = literal; AStitch and SemEval report macro-F1
(the mean of the two classes' F1), IdioTS reports specificity (literal kept literal) beside
recall (figurative found).
"""

from __future__ import annotations

from collections.abc import Sequence

from .metrics import precision_recall_f1


def _counts(gold: Sequence[int], pred: Sequence[int], positive: int) -> tuple[int, int, int]:
    if len(gold) != len(pred):
        raise ValueError(f"gold and pred must have the same length. Got {len(gold)} and "
                         f"{len(pred)}.")
    tp = sum(1 for g, p in zip(gold, pred) if g == positive and p == positive)
    fp = sum(1 for g, p in zip(gold, pred) if g != positive and p == positive)
    fn = sum(1 for g, p in zip(gold, pred) if g == positive and p != positive)
    return tp, fp, fn


def macro_f1(gold: Sequence[int], pred: Sequence[int], labels: Sequence[int] = (0, 1)) -> float:
    """Mean over ``labels`` of each label's F1 (sklearn's ``f1_score(average="macro")``).

    >>> round(macro_f1([1, 1, 0, 0], [1, 0, 0, 0]), 4)
    0.7333
    """
    scores = [precision_recall_f1(*_counts(gold, pred, label))["f1"] for label in labels]
    return sum(scores) / len(scores)


def binary_scores(gold: Sequence[int], pred: Sequence[int]) -> dict[str, float]:
    """Macro-F1, accuracy, recall (figurative found), specificity (literal kept literal),
    precision of figurative, and counts.

    >>> s = binary_scores([1, 1, 1, 0, 0], [1, 1, 0, 0, 1])
    >>> {k: round(v, 3) for k, v in s.items()}  # doctest: +NORMALIZE_WHITESPACE
    {'macro_f1': 0.583, 'accuracy': 0.6, 'recall': 0.667, 'specificity': 0.5,
     'precision': 0.667, 'n': 5, 'n_figurative': 3, 'n_literal': 2}
    """
    tp, fp, fn = _counts(gold, pred, 1)
    tn = sum(1 for g, p in zip(gold, pred) if g == 0 and p == 0)
    n = len(gold)
    positives, negatives = tp + fn, tn + fp
    return {
        "macro_f1": macro_f1(gold, pred),
        "accuracy": (tp + tn) / n if n else 0.0,
        "recall": tp / positives if positives else 0.0,
        "specificity": tn / negatives if negatives else 0.0,
        "precision": tp / (tp + fp) if tp + fp else 0.0,
        "n": n,
        "n_figurative": positives,
        "n_literal": negatives,
    }


def threshold_for_recall(gold: Sequence[int], probs: Sequence[float],
                         min_recall: float) -> float:
    """The highest threshold whose recall of label 1 is still >= ``min_recall`` (so that
    specificity is as high as that recall allows).

    >>> threshold_for_recall([1, 1, 0, 1, 0], [0.9, 0.6, 0.5, 0.4, 0.1], 0.6)
    0.6
    """
    positives = sorted((p for g, p in zip(gold, probs) if g == 1), reverse=True)
    if not positives:
        return 0.5
    needed = max(1, -(-int(round(min_recall * len(positives) * 1e6)) // 1_000_000))
    needed = min(len(positives), needed)
    return float(positives[needed - 1])
