"""Metrics as pure functions, named as in the papers; every function has a worked example.

Scores are fractions in [0, 1] (papers print percentages); a ratio with a zero denominator
is 0.0, so an empty run scores 0 rather than raising.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

Offsets = tuple[int, int]


def _ratio(numerator: float, denominator: float) -> float:
    return float(numerator) / denominator if denominator else 0.0


def _f1(precision: float, recall: float) -> float:
    return _ratio(2 * precision * recall, precision + recall)


def precision_recall_f1(tp: int, fp: int, fn: int) -> dict[str, float]:
    """Precision, recall and their harmonic mean F1 from counts.

    >>> precision_recall_f1(tp=3, fp=1, fn=2)
    {'precision': 0.75, 'recall': 0.6, 'f1': 0.6666666666666665}
    >>> precision_recall_f1(0, 0, 0)
    {'precision': 0.0, 'recall': 0.0, 'f1': 0.0}
    """
    for name, value in (("tp", tp), ("fp", fp), ("fn", fn)):
        if value < 0:
            raise ValueError(f"precision_recall_f1: '{name}' must be >= 0. Got {value}.")
    precision = _ratio(tp, tp + fp)
    recall = _ratio(tp, tp + fn)
    return {"precision": precision, "recall": recall, "f1": _f1(precision, recall)}


def normalize_idiom(idiom: str) -> str:
    """The form idioms are compared in: case-folded, typographic apostrophes made plain,
    whitespace runs collapsed.

    >>> normalize_idiom("  Spill   the BEANS ")
    'spill the beans'
    >>> normalize_idiom("pour one’s heart out")
    "pour one's heart out"
    """
    return " ".join(idiom.replace("\u2019", "'").casefold().split())


def identification_scores(predictions: Sequence[Sequence[str]], gold: Sequence[str]) -> dict:
    """Idiom identification as in IDEM's Table 4, "all candidates" view.

    ``predictions[i]`` holds the idioms a finder returned for sentence ``i``, best first;
    ``gold[i]`` is the sentence's one gold idiom. Every distinct idiom returned for a sentence
    is a prediction (a finder that returns the same idiom at two places predicts it once, as
    the IDEM finder returns each lexicon idiom at most once). A prediction is correct when it
    equals the gold idiom after :func:`normalize_idiom`.

    - ``precision``: correct predictions / all predictions;
    - ``recall``: sentences whose gold idiom is among the predictions / sentences;
    - ``f1``: harmonic mean of the two;
    - ``selection_accuracy``: sentences whose first prediction is the gold idiom / sentences;
    - counts: ``n`` sentences, ``n_predictions``, ``n_correct``, ``no_prediction`` (sentences
      with no prediction).

    Four sentences: the first finds the gold idiom but ranks it second, the second finds only
    wrong idioms, the third finds nothing, the fourth finds the gold idiom (written differently):

    >>> scores = identification_scores(
    ...     [["beans", "spill the beans"], ["break the ice", "ice"], [], ["Kick the  Bucket"]],
    ...     ["spill the beans", "let the cat out of the bag", "hit the sack", "kick the bucket"],
    ... )
    >>> {k: round(v, 4) for k, v in scores.items()}  # doctest: +NORMALIZE_WHITESPACE
    {'precision': 0.4, 'recall': 0.5, 'f1': 0.4444, 'selection_accuracy': 0.25, 'n': 4,
     'n_predictions': 5, 'n_correct': 2, 'no_prediction': 1}
    """
    if len(predictions) != len(gold):
        raise ValueError(
            f"identification_scores: 'predictions' and 'gold' must have the same length. "
            f"Got {len(predictions)} and {len(gold)}."
        )
    n_predictions = n_correct = found = selected = no_prediction = 0
    for candidates, target in zip(predictions, gold, strict=True):
        # dict.fromkeys: de-duplicate but keep the ranking
        ranked = list(dict.fromkeys(normalize_idiom(c) for c in candidates))
        target_norm = normalize_idiom(target)
        hits = sum(c == target_norm for c in ranked)
        n_predictions += len(ranked)
        n_correct += hits
        found += hits > 0
        selected += bool(ranked) and ranked[0] == target_norm
        no_prediction += not ranked
    precision = _ratio(n_correct, n_predictions)
    recall = _ratio(found, len(gold))
    return {
        "precision": precision,
        "recall": recall,
        "f1": _f1(precision, recall),
        "selection_accuracy": _ratio(selected, len(gold)),
        "n": len(gold),
        "n_predictions": n_predictions,
        "n_correct": n_correct,
        "no_prediction": no_prediction,
    }


def _check_spans(name: str, docs: Sequence[Sequence[Offsets]]) -> None:
    for doc_no, spans in enumerate(docs):
        for start, end in spans:
            if not 0 <= start <= end:
                raise ValueError(
                    f"'{name}' must hold (start, end) offsets with 0 <= start <= end. "
                    f"Got ({start}, {end}) in document {doc_no}."
                )


def _check_docs(pred_spans: Sequence, gold_spans: Sequence) -> None:
    if len(pred_spans) != len(gold_spans):
        raise ValueError(
            "'pred_spans' and 'gold_spans' must list the same documents. "
            f"Got {len(pred_spans)} and {len(gold_spans)} documents."
        )
    _check_spans("pred_spans", pred_spans)
    _check_spans("gold_spans", gold_spans)


def span_exact_prf(
    pred_spans: Sequence[Sequence[Offsets]], gold_spans: Sequence[Sequence[Offsets]]
) -> dict[str, float]:
    """Span precision/recall/F1 where a predicted span counts only if its (start, end)
    character offsets equal a gold span's in the same document (each gold span matches once).

    >>> span_exact_prf([[(3, 20), (25, 30)], []], [[(3, 20)], [(0, 5)]])
    {'precision': 0.5, 'recall': 0.5, 'f1': 0.5}
    """
    _check_docs(pred_spans, gold_spans)
    tp = fp = fn = 0
    for pred, gold in zip(pred_spans, gold_spans, strict=True):
        pred_counts, gold_counts = Counter(map(tuple, pred)), Counter(map(tuple, gold))
        matched = sum((pred_counts & gold_counts).values())
        tp += matched
        fp += len(pred) - matched
        fn += len(gold) - matched
    return precision_recall_f1(tp, fp, fn)


def _covered(spans: Sequence[Offsets]) -> set[int]:
    return {i for start, end in spans for i in range(start, end)}


def span_token_overlap_prf(
    pred_spans: Sequence[Sequence[Offsets]], gold_spans: Sequence[Sequence[Offsets]]
) -> dict[str, float]:
    """Span precision/recall/F1 by character overlap (partial credit for partial matches).

    Per document, take the set of character positions covered by predicted spans and by gold
    spans (overlapping spans count each character once). Summed over documents:
    precision = |predicted ∩ gold| / |predicted|, recall = |predicted ∩ gold| / |gold|.
    Characters stand in for tokens so that the metric needs no tokenizer; for whole-word
    spans the two differ only in weighting long words more.

    Gold "spilled the beans" at (3, 20); the prediction "the beans" at (11, 20) covers 9 of
    its 17 characters, all of them gold:

    >>> scores = span_token_overlap_prf([[(11, 20)]], [[(3, 20)]])
    >>> {k: round(v, 4) for k, v in scores.items()}
    {'precision': 1.0, 'recall': 0.5294, 'f1': 0.6923}
    """
    _check_docs(pred_spans, gold_spans)
    overlap = n_pred = n_gold = 0
    for pred, gold in zip(pred_spans, gold_spans, strict=True):
        pred_chars, gold_chars = _covered(pred), _covered(gold)
        overlap += len(pred_chars & gold_chars)
        n_pred += len(pred_chars)
        n_gold += len(gold_chars)
    precision = _ratio(overlap, n_pred)
    recall = _ratio(overlap, n_gold)
    return {"precision": precision, "recall": recall, "f1": _f1(precision, recall)}


def span_hit_rate(
    pred_spans: Sequence[Sequence[Offsets]], gold_spans: Sequence[Offsets | None]
) -> dict[str, float]:
    """How many gold spans (one per document, ``None`` when it could not be located) are hit:
    some predicted span of the same document shares at least one character with it.

    A recall without a precision: for corpora that annotate one expression per sentence and
    leave other idioms in it unannotated, a prediction elsewhere is neither right nor wrong.
    Documents whose gold span is ``None`` are counted apart (``unlocated``).

    >>> span_hit_rate([[(3, 20)], [(0, 4)], []], [(11, 20), (5, 9), None])
    {'hit_rate': 0.5, 'hits': 1, 'n': 2, 'unlocated': 1}
    """
    if len(pred_spans) != len(gold_spans):
        raise ValueError(
            "'pred_spans' and 'gold_spans' must list the same documents. "
            f"Got {len(pred_spans)} and {len(gold_spans)} documents."
        )
    _check_spans("pred_spans", pred_spans)
    _check_spans("gold_spans", [[g] for g in gold_spans if g is not None])
    hits = n = 0
    for pred, gold in zip(pred_spans, gold_spans, strict=True):
        if gold is None:
            continue
        n += 1
        hits += any(start < gold[1] and end > gold[0] for start, end in pred)
    return {"hit_rate": _ratio(hits, n), "hits": hits, "n": n,
            "unlocated": len(gold_spans) - n}
