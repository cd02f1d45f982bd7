"""Cheap leakage checks for a labelled idiom/metaphor dataset: no training, seconds per dataset.

Boisson et al. (2023) show that figurative-language datasets can be solved without the context
(the expression alone predicts the label) or without the expression. Before training anything,
four numbers tell how exposed a split is:

- :func:`expression_overlap`: how many test examples have an expression seen in train;
- :func:`label_skew`: how far a lookup "majority label of this expression in train" gets on test
  (with the global majority label for unseen expressions);
- :func:`duplicate_contexts`: test sentences that also occur in train, exactly (after
  normalisation) or nearly (MinHash over character 5-grams, verified by exact Jaccard);
- :func:`class_balance`: the label distribution of a split.

All are pure functions over lists of :class:`~idiomkit.datasets.Example` (``text``, ``idiom``,
``label``); examples without a label are ignored where a label is needed.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

from ..datasets import Example

#: default Jaccard similarity (character 5-grams) from which two sentences are near-duplicates
NEAR_DUPLICATE_THRESHOLD = 0.8
#: near-duplicates compare sets of character n-grams of this length
SHINGLE = 5
#: MinHash permutations (LSH precision vs speed)
NUM_PERM = 128
#: how many example pairs a duplicate check keeps for the report
_KEEP_PAIRS = 5


def normalize_expression(expression: str | None) -> str:
    """Lower case, hyphens as spaces, one space between words.

    >>> normalize_expression("  Gelo-Seco ")
    'gelo seco'
    """
    if not expression:
        return ""
    return " ".join(re.sub(r"[\-‐‑‒–—―]", " ", expression.casefold()).split())


def normalize_text(text: str) -> str:
    """The form exact duplicates are compared in: NFKC, case-folded, punctuation dropped,
    one space between words (so "Hello, World!" and "hello world" are duplicates).

    >>> normalize_text("“Hello,  World!”")
    'hello world'
    """
    text = unicodedata.normalize("NFKC", text).casefold()
    return " ".join(re.sub(r"[\W_]+", " ", text).split())


def _labelled(examples: Iterable[Example]) -> list[Example]:
    return [e for e in examples if e.label is not None]


def _ratio(numerator: float, denominator: float) -> float:
    return numerator / denominator if denominator else 0.0


def class_balance(examples: Sequence[Example]) -> dict[str, Any]:
    """Label counts and shares of a split, and its majority label.

    >>> b = class_balance([Example("1", "a", label="idiomatic")] * 3
    ...                   + [Example("2", "b", label="literal")])
    >>> b["counts"], b["majority_label"], b["majority_share"]
    ({'idiomatic': 3, 'literal': 1}, 'idiomatic', 0.75)
    """
    counts = Counter(e.label for e in _labelled(examples))
    total = sum(counts.values())
    ordered = dict(sorted(counts.items(), key=lambda item: (-item[1], item[0])))
    majority = next(iter(ordered), None)
    return {
        "n": total,
        "unlabelled": len(examples) - total,
        "counts": ordered,
        "shares": {label: _ratio(count, total) for label, count in ordered.items()},
        "majority_label": majority,
        "majority_share": _ratio(ordered.get(majority, 0), total) if majority else 0.0,
    }


def expression_overlap(train: Sequence[Example], test: Sequence[Example]) -> dict[str, Any]:
    """Share of test examples (and of test expression types) whose expression occurs in train.

    Expressions are compared after :func:`normalize_expression`; test examples without an
    expression are left out.

    >>> train = [Example("1", "x", idiom="big fish"), Example("2", "y", idiom="red tape")]
    >>> test = [Example("3", "z", idiom="Big fish"), Example("4", "w", idiom="Big fish"),
    ...         Example("5", "v", idiom="cold feet")]
    >>> o = expression_overlap(train, test)
    >>> o["example_overlap"], o["type_overlap"], o["test_types"]
    (0.6666666666666666, 0.5, 2)
    """
    seen = {normalize_expression(e.idiom) for e in train if e.idiom}
    expressions = [normalize_expression(e.idiom) for e in test if e.idiom]
    types = set(expressions)
    seen_examples = sum(expression in seen for expression in expressions)
    seen_types = len(types & seen)
    return {
        "test_examples": len(expressions),
        "test_examples_seen": seen_examples,
        "example_overlap": _ratio(seen_examples, len(expressions)),
        "train_types": len(seen),
        "test_types": len(types),
        "test_types_seen": seen_types,
        "type_overlap": _ratio(seen_types, len(types)),
    }


def _majority(counts: Counter, order: dict[str, int]) -> str:
    # ties go to the label that is more frequent overall, then to the smaller label string, so
    # the lookup does not depend on the order of the examples
    return min(counts, key=lambda label: (-counts[label], order.get(label, len(order)), label))


def macro_f1(gold: Sequence[str], predicted: Sequence[str]) -> float:
    """Macro-averaged F1 over the labels that occur in ``gold`` or ``predicted``.

    >>> macro_f1(["a", "a", "b", "b"], ["a", "a", "a", "b"])
    0.7333333333333334
    """
    labels = sorted(set(gold) | set(predicted))
    if not labels:
        return 0.0
    scores = []
    for label in labels:
        tp = sum(g == p == label for g, p in zip(gold, predicted))
        fp = sum(p == label != g for g, p in zip(gold, predicted))
        fn = sum(g == label != p for g, p in zip(gold, predicted))
        precision, recall = _ratio(tp, tp + fp), _ratio(tp, tp + fn)
        scores.append(_ratio(2 * precision * recall, precision + recall))
    return sum(scores) / len(scores)


def label_skew(train: Sequence[Example], test: Sequence[Example]) -> dict[str, Any]:
    """How well "the majority label of this expression in train" predicts the test labels.

    The lookup is fitted on train; a test expression not seen in train gets the global majority
    label of train. Reported: ``accuracy`` and ``macro_f1`` of the lookup on test, the same for
    the global-majority baseline, the lookup's accuracy on the test examples whose expression was
    seen (``seen_accuracy``, ``seen``), and ``train_purity`` (the lookup's accuracy on train
    itself: 1.0 when every expression has a single label).

    >>> train = [Example(str(i), "s", idiom=i_, label=l) for i, (i_, l) in enumerate(
    ...     [("a", "lit"), ("a", "lit"), ("a", "fig"), ("b", "fig"), ("b", "fig")])]
    >>> test = [Example("t1", "s", idiom="a", label="lit"), Example("t2", "s", idiom="b",
    ...         label="lit"), Example("t3", "s", idiom="c", label="fig")]
    >>> s = label_skew(train, test)
    >>> s["accuracy"], s["global_majority_accuracy"], s["seen_accuracy"], s["train_purity"]
    (0.6666666666666666, 0.3333333333333333, 0.5, 0.8)
    """
    train, test = _labelled(train), _labelled(test)
    overall = Counter(e.label for e in train)
    order = {label: rank for rank, (label, _) in enumerate(overall.most_common())}
    by_expression: dict[str, Counter] = defaultdict(Counter)
    for example in train:
        by_expression[normalize_expression(example.idiom)][example.label] += 1
    lookup = {expr: _majority(counts, order) for expr, counts in by_expression.items()}
    fallback = _majority(overall, order) if overall else None
    gold = [e.label for e in test]
    keys = [normalize_expression(e.idiom) for e in test]
    predicted = [lookup.get(key, fallback) for key in keys]
    baseline = [fallback] * len(test)
    seen = [(g, p) for g, p, key in zip(gold, predicted, keys) if key in lookup]
    return {
        "n": len(test),
        "accuracy": _ratio(sum(g == p for g, p in zip(gold, predicted)), len(test)),
        "macro_f1": macro_f1(gold, predicted) if test else 0.0,
        "global_majority_label": fallback,
        "global_majority_accuracy": _ratio(sum(g == fallback for g in gold), len(test)),
        "global_majority_macro_f1": macro_f1(gold, baseline) if test else 0.0,
        "seen": len(seen),
        "seen_accuracy": _ratio(sum(g == p for g, p in seen), len(seen)),
        "train_purity": _ratio(
            sum(counts[lookup[expr]] for expr, counts in by_expression.items()), len(train)
        ),
    }


def duplicate_contexts(
    train: Sequence[Example],
    test: Sequence[Example],
    threshold: float = NEAR_DUPLICATE_THRESHOLD,
) -> dict[str, Any]:
    """Test sentences that occur in train exactly (after :func:`normalize_text`) or nearly.

    Near-duplicates have a Jaccard similarity of at least ``threshold`` over character 5-grams
    of the normalised text: candidates come from MinHash LSH (datasketch) and each is verified
    with the exact Jaccard, so no pair below the threshold is reported. Exact duplicates are not
    counted again as near-duplicates. ``same_label`` tells how many duplicated test examples
    have a train twin with the same expression and label (a free answer for a model).

    >>> train = [Example("1", "He kicked the bucket yesterday.", "kick the bucket", label="fig")]
    >>> test = [Example("2", "he kicked the bucket, yesterday", "kick the bucket", label="fig"),
    ...         Example("3", "He kicked the bucket yesterday!!", "kick the bucket", label="lit"),
    ...         Example("4", "She kicked the bucket yesterday.", "kick the bucket", label="fig"),
    ...         Example("5", "Nothing alike at all.", "x", label="lit")]
    >>> d = duplicate_contexts(train, test)
    >>> d["exact"], d["near"], d["same_label"], d["any_share"]
    (2, 1, 2, 0.75)
    """
    train_keys: dict[str, list[Example]] = defaultdict(list)
    for example in train:
        train_keys[normalize_text(example.text)].append(example)
    exact, near, same_label, pairs = 0, 0, 0, []
    rest: list[Example] = []
    for example in test:
        twins = train_keys.get(normalize_text(example.text))
        if twins:
            exact += 1
            same_label += any(_same_answer(example, twin) for twin in twins)
            if len(pairs) < _KEEP_PAIRS:
                pairs.append(_pair("exact", example, twins[0], 1.0))
        else:
            rest.append(example)
    if rest and train_keys:
        keys = list(train_keys)
        index = _lsh_index(keys, threshold)
        texts = [normalize_text(example.text) for example in rest]
        for example, text, signature in zip(rest, texts, _signatures(texts)):
            best, twin_key = _best_match(text, signature, index, threshold)
            if twin_key is None:
                continue
            near += 1
            twins = train_keys[twin_key]
            same_label += any(_same_answer(example, twin) for twin in twins)
            if len(pairs) < 2 * _KEEP_PAIRS:
                pairs.append(_pair("near", example, twins[0], best))
    return {
        "n": len(test),
        "threshold": threshold,
        "exact": exact,
        "exact_share": _ratio(exact, len(test)),
        "near": near,
        "near_share": _ratio(near, len(test)),
        "any_share": _ratio(exact + near, len(test)),
        "same_label": same_label,
        "examples": pairs,
    }


def duplicates_within(examples: Sequence[Example]) -> dict[str, Any]:
    """Examples of one split whose normalised sentence occurs more than once in that split.

    >>> duplicates_within([Example("1", "A b."), Example("2", "a B"), Example("3", "c")])
    {'n': 3, 'duplicated': 2, 'share': 0.6666666666666666}
    """
    counts = Counter(normalize_text(e.text) for e in examples)
    duplicated = sum(count for count in counts.values() if count > 1)
    share = _ratio(duplicated, len(examples))
    return {"n": len(examples), "duplicated": duplicated, "share": share}


def _same_answer(example: Example, twin: Example) -> bool:
    return (
        normalize_expression(example.idiom) == normalize_expression(twin.idiom)
        and example.label == twin.label
    )


def _pair(kind: str, example: Example, twin: Example, similarity: float) -> dict[str, Any]:
    return {
        "kind": kind,
        "similarity": round(similarity, 4),
        "test_id": example.id,
        "train_id": twin.id,
        "test_text": example.text,
        "train_text": twin.text,
    }


# --- MinHash machinery ---------------------------------------------------------------------

#: signatures by normalised text, reused across calls (train splits are checked against dev
#: and test, and against several settings); cleared when it grows past _CACHE_LIMIT
_SIGNATURES: dict[str, Any] = {}
_CACHE_LIMIT = 300_000


def _shingles(text: str) -> set[bytes]:
    if len(text) <= SHINGLE:
        return {text.encode("utf-8")}
    return {text[i : i + SHINGLE].encode("utf-8") for i in range(len(text) - SHINGLE + 1)}


def _jaccard(a: set[bytes], b: set[bytes]) -> float:
    return _ratio(len(a & b), len(a | b))


def _signatures(texts: Sequence[str]) -> list[Any]:
    from datasketch import LeanMinHash, MinHash

    missing = [t for t in dict.fromkeys(texts) if t not in _SIGNATURES]
    if len(_SIGNATURES) + len(missing) > _CACHE_LIMIT:
        _SIGNATURES.clear()
        missing = list(dict.fromkeys(texts))
    if missing:
        hashes = MinHash.bulk([_shingles(t) for t in missing], num_perm=NUM_PERM, seed=1)
        _SIGNATURES.update(zip(missing, (LeanMinHash(h) for h in hashes)))
    return [_SIGNATURES[t] for t in texts]


def _lsh_index(keys: Sequence[str], threshold: float) -> Any:
    from datasketch import MinHashLSH

    lsh = MinHashLSH(threshold=threshold, num_perm=NUM_PERM)
    with lsh.insertion_session() as session:
        for key, signature in zip(keys, _signatures(keys)):
            session.insert(key, signature, check_duplication=False)
    return lsh


def _best_match(
    text: str, signature: Any, index: Any, threshold: float
) -> tuple[float, str | None]:
    # LSH proposes candidates; the exact Jaccard decides, so reported pairs are never false hits
    shingles = _shingles(text)
    best, best_key = 0.0, None
    for key in sorted(index.query(signature)):
        similarity = _jaccard(shingles, _shingles(key))
        if similarity >= threshold and similarity > best:
            best, best_key = similarity, key
    return best, best_key
