"""Idiom detection as in IdioTS: "Is there an idiom in the sentence?", one yes/no per sentence.

Metrics (pure functions, fractions in [0, 1]; the paper's names):

- Table 1: :func:`accuracy`, :func:`misclassification_rate`, :func:`recall`,
  :func:`specificity`, :func:`precision`, :func:`balanced_accuracy`; idiomatic is the positive
  class, distractors (literal uses) the negative one;
- Table 2: :func:`true_positive_consistency`, the share of true positives whose named idiom is
  the gold one (compared with :func:`idiom_matches`);
- Table 3: :func:`distractor_share`, the share of distractors where the system says "idiom"
  and names the distractor's associated expression.

A system that gives no usable answer for a sentence (unparseable, or the backend failed)
gets that sentence wrong: it counts as a false negative on an idiomatic sentence and as a
false positive on a distractor, and is reported in ``unparseable`` / ``errors``. So every
sentence is scored, and a system cannot gain by failing to answer.

The paper's Table 1 column for Vicuna is reproduced from its counts (164 idiomatic sentences,
86 distractors; 162 true positives, 7 true negatives):

>>> scores = detection_scores(tp=162, fp=79, tn=7, fn=2)
>>> {k: round(v, 3) for k, v in scores.items()}  # doctest: +NORMALIZE_WHITESPACE
{'accuracy': 0.676, 'misclassification_rate': 0.324, 'recall': 0.988, 'specificity': 0.081,
 'precision': 0.672, 'balanced_accuracy': 0.535}
"""

from __future__ import annotations

import re
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..detect.variants import FUNCTION_WORDS, SOMEONE, word_forms
from ..errors import DataError
from ..text.tokenize import tokenize
from .metrics import normalize_idiom
from .results import make_results

TASK = "detection"
POSITIVE, NEGATIVE = "idiomatic", "literal"

#: IdioTS paper (250 sentences: 164 idiomatic, 86 distractors), Tables 1-3, as fractions.
#: The sentences differ from the IdioTS-style set; the numbers show what 7B chat LLMs do.
IDIOTS_REFERENCE: dict[str, dict[str, float]] = {
    "IdioTS paper: Llama-2-7b-chat": {
        "accuracy": 0.656, "misclassification_rate": 0.344, "recall": 1.0, "specificity": 0.0,
        "precision": 0.656, "balanced_accuracy": 0.5, "true_positive_consistency": 0.841,
        "distractor_share": 0.640,
    },
    "IdioTS paper: Mistral-7b-Instruct": {
        "accuracy": 0.660, "misclassification_rate": 0.340, "recall": 0.896,
        "specificity": 0.209, "precision": 0.680, "balanced_accuracy": 0.553,
        "true_positive_consistency": 0.905, "distractor_share": 0.616,
    },
    "IdioTS paper: Vicuna-7b": {
        "accuracy": 0.676, "misclassification_rate": 0.324, "recall": 0.988,
        "specificity": 0.081, "precision": 0.672, "balanced_accuracy": 0.535,
        "true_positive_consistency": 0.889, "distractor_share": 0.546,
    },
}


# -- metrics --------------------------------------------------------------------------------

def _ratio(numerator: float, denominator: float) -> float:
    return float(numerator) / denominator if denominator else 0.0


def accuracy(tp: int, fp: int, tn: int, fn: int) -> float:
    """Correct answers over all sentences.

    >>> accuracy(tp=164, fp=86, tn=0, fn=0)  # Llama2 in IdioTS: always "yes"
    0.656
    """
    return _ratio(tp + tn, tp + fp + tn + fn)


def misclassification_rate(tp: int, fp: int, tn: int, fn: int) -> float:
    """Wrong answers over all sentences (1 - accuracy; lower is better).

    >>> misclassification_rate(tp=164, fp=86, tn=0, fn=0)
    0.344
    """
    return _ratio(fp + fn, tp + fp + tn + fn)


def recall(tp: int, fn: int) -> float:
    """Idiomatic sentences found: TP / (TP + FN).

    >>> round(recall(tp=147, fn=17), 3)  # Mistral in IdioTS
    0.896
    """
    return _ratio(tp, tp + fn)


def specificity(tn: int, fp: int) -> float:
    """Distractors recognised as literal (true negative rate): TN / (TN + FP).

    >>> round(specificity(tn=18, fp=68), 3)  # Mistral in IdioTS
    0.209
    """
    return _ratio(tn, tn + fp)


def precision(tp: int, fp: int) -> float:
    """Sentences called idiomatic that are: TP / (TP + FP).

    >>> round(precision(tp=162, fp=79), 3)  # Vicuna in IdioTS
    0.672
    """
    return _ratio(tp, tp + fp)


def balanced_accuracy(tp: int, fp: int, tn: int, fn: int) -> float:
    """Mean of recall and specificity: robust to IdioTS's 2:1 class imbalance.

    >>> balanced_accuracy(tp=164, fp=86, tn=0, fn=0)
    0.5
    """
    return (recall(tp, fn) + specificity(tn, fp)) / 2


def detection_scores(tp: int, fp: int, tn: int, fn: int) -> dict[str, float]:
    """The six Table 1 metrics from the confusion counts (see the module docstring)."""
    for name, value in (("tp", tp), ("fp", fp), ("tn", tn), ("fn", fn)):
        if value < 0:
            raise ValueError(f"detection_scores: '{name}' must be >= 0. Got {value}.")
    return {
        "accuracy": accuracy(tp, fp, tn, fn),
        "misclassification_rate": misclassification_rate(tp, fp, tn, fn),
        "recall": recall(tp, fn),
        "specificity": specificity(tn, fp),
        "precision": precision(tp, fp),
        "balanced_accuracy": balanced_accuracy(tp, fp, tn, fn),
    }


def confusion(predicted: Sequence[bool | None], gold: Sequence[bool]) -> dict[str, int]:
    """TP/FP/TN/FN with ``None`` (no usable answer) counted as the wrong class.

    >>> confusion([True, None, False, None, True], [True, True, False, False, False])
    {'tp': 1, 'fp': 2, 'tn': 1, 'fn': 1, 'no_answer': 2}
    """
    if len(predicted) != len(gold):
        raise ValueError(
            f"confusion: 'predicted' and 'gold' must have the same length. "
            f"Got {len(predicted)} and {len(gold)}."
        )
    counts = {"tp": 0, "fp": 0, "tn": 0, "fn": 0, "no_answer": 0}
    for answer, truth in zip(predicted, gold):
        if answer is None:
            counts["no_answer"] += 1
            answer = not truth
        key = ("tp" if truth else "fp") if answer else ("fn" if truth else "tn")
        counts[key] += 1
    return counts


_MARKUP_RE = re.compile(r"\[[^\]]*\]|\([^)]*\)")
_SLOTS = SOMEONE | frozenset({"one", "one's", "oneself", "'s", "someone's", "somebody's"})


def _content_words(idiom: str) -> list[str]:
    words = [t.norm for t in tokenize(_MARKUP_RE.sub(" ", idiom)) if any(c.isalnum()
                                                                          for c in t.norm)]
    if words[:1] == ["to"] and len(words) > 1:  # "to spill the beans"
        words = words[1:]
    content = [w for w in words if w not in FUNCTION_WORDS and w not in _SLOTS]
    return content or [w for w in words if w not in _SLOTS] or words


def idiom_matches(named: str | None, gold: str | None) -> bool:
    """Whether a named idiom is the gold one, by idiomkit's normaliser and word forms.

    Equal after :func:`~idiomkit.evaluate.metrics.normalize_idiom` (case, apostrophes,
    spaces), or: every content word of the gold idiom (slots such as ``one's``, ``someone``
    and EPIE's ``[pron]`` left out) appears in the named one in some inflected form, and the
    named one is mostly those words (at most one other content word per gold one, plus one).
    This accepts "spilled the beans" and "To spill the beans" for "spill the beans", and
    rejects "beans" and a whole sentence that happens to contain the words.

    >>> idiom_matches("To spill the beans", "spill the beans")
    True
    >>> idiom_matches("kept an eye on", "keep [pron] eye on")
    True
    >>> idiom_matches("beans", "spill the beans")
    False
    >>> idiom_matches("Ironing out differences", "cut to the chase")
    False
    >>> idiom_matches(None, "spill the beans")
    False
    """
    if not named or not gold:
        return False
    if normalize_idiom(named).strip(" .!'\"") == normalize_idiom(gold).strip(" .!'\""):
        return True
    wanted = _content_words(gold)
    said = _content_words(named)
    if not wanted or not said:
        return False
    forms = set(said)
    if not all(word_forms(word) & forms for word in wanted):
        return False
    return len(said) <= 2 * len(wanted) + 1


def true_positive_consistency(
    predicted: Sequence[bool | None], gold: Sequence[bool],
    named: Sequence[str | None], gold_idioms: Sequence[str | None],
    match: Callable[[str | None, str | None], bool] = idiom_matches,
) -> dict[str, Any]:
    """IdioTS Table 2: true positives whose named idiom is the gold one, over true positives.

    >>> true_positive_consistency([True, True, True, False], [True, True, True, True],
    ...     ["spill the beans", "beans", "broke the ice", None],
    ...     ["spill the beans", "spill the beans", "break the ice", "hit the sack"]
    ... )  # doctest: +NORMALIZE_WHITESPACE
    {'idiomatic': 4, 'true_positives': 3, 'true_positives_correct': 2,
     'true_positive_consistency': 0.6666666666666666}
    """
    hits = [i for i, (p, g) in enumerate(zip(predicted, gold)) if p and g]
    correct = sum(match(named[i], gold_idioms[i]) for i in hits)
    return {
        "idiomatic": sum(bool(g) for g in gold),
        "true_positives": len(hits),
        "true_positives_correct": correct,
        "true_positive_consistency": _ratio(correct, len(hits)),
    }


def distractor_share(
    predicted: Sequence[bool | None], gold: Sequence[bool],
    named: Sequence[str | None], gold_idioms: Sequence[str | None],
    match: Callable[[str | None, str | None], bool] = idiom_matches,
) -> dict[str, Any]:
    """IdioTS Table 3: distractors where the system says "idiom" and names the associated
    expression, over all distractors (lower is better).

    >>> distractor_share([True, True, False], [False, False, False],
    ...                  ["break the ice", "cut and tighten", None],
    ...                  ["break the ice", "cut to the chase", "spill the beans"])
    {'distractors': 3, 'false_positives_associated': 1, 'distractor_share': 0.3333333333333333}
    """
    negatives = [i for i, g in enumerate(gold) if not g]
    trapped = sum(bool(predicted[i]) and match(named[i], gold_idioms[i]) for i in negatives)
    return {
        "distractors": len(negatives),
        "false_positives_associated": trapped,
        "distractor_share": _ratio(trapped, len(negatives)),
    }


# -- harness --------------------------------------------------------------------------------

@dataclass(frozen=True)
class DetectionPrediction:
    """One system answer: yes/no (``None``: no usable answer), the idiom it names, and how the
    answer was read (``ok``, ``inferred``, ``unparseable``, ``error``)."""

    id: str
    has_idiom: bool | None
    idiom: str | None = None
    status: str = "ok"
    detail: dict[str, Any] = field(default_factory=dict)


class DetectionSystem(Protocol):
    """Anything that answers the detection question for a batch of sentences."""

    name: str

    def configuration(self) -> dict[str, Any]: ...

    def predict(self, examples: Sequence[Any], *, progress: bool = True
                ) -> list[DetectionPrediction]: ...


def _gold(example: Any) -> bool:
    if example.label not in (POSITIVE, NEGATIVE):
        raise DataError(
            "E335", f"Example '{example.id}' has label {example.label!r}; detection needs "
            f"'{POSITIVE}' or '{NEGATIVE}'. Use a dataset with idiomatic/literal labels "
            "(idiots-style, epie-formal, pie-english)."
        )
    return example.label == POSITIVE


def score_predictions(
    examples: Sequence[Any], predictions: Sequence[DetectionPrediction]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """``(metrics, counts)`` for predictions aligned with ``examples``."""
    gold = [_gold(e) for e in examples]
    if [p.id for p in predictions] != [e.id for e in examples]:
        raise ValueError("score_predictions: predictions must follow the examples' order.")
    answers = [p.has_idiom for p in predictions]
    named = [p.idiom for p in predictions]
    idioms = [e.idiom for e in examples]
    counts = confusion(answers, gold)
    statuses = Counter(p.status for p in predictions)
    tpc = true_positive_consistency(answers, gold, named, idioms)
    share = distractor_share(answers, gold, named, idioms)
    metrics = {
        **detection_scores(counts["tp"], counts["fp"], counts["tn"], counts["fn"]),
        "true_positive_consistency": tpc["true_positive_consistency"],
        "distractor_share": share["distractor_share"],
        "unparseable": statuses.get("unparseable", 0),
        "errors": statuses.get("error", 0),
    }
    details = {
        **counts,
        **{k: v for k, v in tpc.items() if k != "true_positive_consistency"},
        **{k: v for k, v in share.items() if k != "distractor_share"},
        "answers": dict(sorted(statuses.items())),
    }
    return metrics, details


def evaluate_detection(
    system: DetectionSystem, dataset: Any, *, progress: bool = True, seed: int | None = None,
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Run ``system`` on ``dataset``; return the results object and one record per sentence.

    The results object (see :func:`~idiomkit.evaluate.results.make_results`) carries the
    metrics above, the counts behind them (``counts``) and the paper's numbers (``reference``).
    """
    examples = list(dataset)
    for example in examples:
        _gold(example)
    started = time.perf_counter()
    predictions = system.predict(examples, progress=progress)
    seconds = time.perf_counter() - started
    metrics, counts = score_predictions(examples, predictions)
    configuration = {"system": system.name, **system.configuration()}
    results = make_results(
        TASK, dataset, getattr(dataset, "split", "test"), configuration, metrics, len(examples),
        seed=seed, extra={"counts": counts, "seconds": round(seconds, 3),
                          "reference": IDIOTS_REFERENCE},
    )
    records = [
        {"id": e.id, "text": e.text, "gold": e.label, "gold_idiom": e.idiom,
         "predicted": p.has_idiom, "idiom": p.idiom, "status": p.status,
         "idiom_correct": idiom_matches(p.idiom, e.idiom) if p.has_idiom else None, **p.detail}
        for e, p in zip(examples, predictions)
    ]
    if progress:
        print(f"detection: {len(examples)} sentences in {seconds:.1f} s", file=sys.stderr)
    return results, records


TABLE_COLUMNS = (
    ("accuracy", "Accuracy ↑"), ("misclassification_rate", "MR ↓"), ("recall", "Recall ↑"),
    ("specificity", "Specificity ↑"), ("precision", "Precision ↑"),
    ("balanced_accuracy", "Balanced acc. ↑"), ("true_positive_consistency", "TP consistency ↑"),
    ("distractor_share", "Distractor share ↓"),
)


def markdown_table(runs: Sequence[dict[str, Any]], *, reference: bool = True) -> str:
    """One Markdown table: a row per results object, then the paper's Table 1-3 numbers.

    >>> markdown_table([]).splitlines()[2].startswith("| IdioTS paper: Llama-2-7b-chat")
    True
    """
    header = ["system", *(label for _, label in TABLE_COLUMNS), "n", "unparseable", "errors"]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for results in runs:
        metrics = results["metrics"]
        cells = [f"{metrics.get(k, 0):.3f}" for k, _ in TABLE_COLUMNS]
        lines.append("| " + " | ".join([
            f"{results['configuration'].get('system')} ({results['dataset']})", *cells,
            str(results["n"]), str(metrics.get("unparseable", 0)), str(metrics.get("errors", 0)),
        ]) + " |")
    if reference:
        for name, metrics in IDIOTS_REFERENCE.items():
            cells = [f"{metrics[k]:.3f}" for k, _ in TABLE_COLUMNS]
            lines.append("| " + " | ".join([f"{name} (250 sentences)", *cells, "250", "–", "–"])
                         + " |")
    return "\n".join(lines)


# -- idiomkit's own pipeline as a detection system -----------------------------------------

def _default_analyzer(tagger: str | None = "default"
                      ) -> tuple[Callable[[Sequence[str]], list[Any]], dict[str, Any]]:
    """idiomkit's analysis (finder + literal/figurative classifier + span tagger unless
    ``tagger`` is None; literal candidates kept so they can be reported) when the shipped
    classifier loads, else the finder alone; with a description for the results file."""
    from ..errors import IdiomkitError

    try:
        from ..pipeline import Analyzer

        analyzer = Analyzer(keep_literal=True, emotion=None, tagger=tagger)
    except (ImportError, IdiomkitError) as error:
        from ..finder import Finder

        print(f"idiomkit: no figurative classifier ({error}); detection uses the finder alone, "
              "so every idiom it finds counts as idiomatic.", file=sys.stderr)
        finder = Finder()
        return (lambda texts: [finder.find(t) for t in texts]), {
            "pipeline": "finder", "method": finder.method, "figurative_classifier": None}
    card = getattr(analyzer.classifier, "card", {}) or {}
    return analyzer.analyze_many, {
        "pipeline": "analyze", "method": analyzer.finder.method,
        "figurative_classifier": card.get("name", "default"),
        "classifier_threshold": analyzer.threshold,
        "span_tagger": analyzer.tagger.name if analyzer.tagger else None,
        "tagger_threshold": analyzer.tagger.config.threshold if analyzer.tagger else None,
    }


class IdiomkitDetector:
    """idiomkit as a detection system: "idiom" when the analysis keeps a figurative idiom.

    With a figurative classifier, a sentence is idiomatic when one of its candidate idioms is
    labelled figurative (``label == "figurative"``, or ``p_figurative >= threshold`` where
    there is no label), be it a lexicon candidate or one the span tagger added (``tagger``:
    its name; None for lexicon candidates only). The idiom named is the first such one (a
    tagged span names its text). Without a classifier (the finder alone),
    any idiom found makes the sentence idiomatic, so literal distractors are missed.
    """

    name = "idiomkit"

    def __init__(self, analyzer: Callable[[str], Any] | None = None, *,
                 threshold: float = 0.5, batch_size: int = 32,
                 tagger: str | None = "default") -> None:
        self.threshold = threshold
        self.batch_size = batch_size
        if analyzer is None:
            self._analyze_many, self._description = _default_analyzer(tagger)
        else:
            self._analyze_many = lambda texts: [analyzer(t) for t in texts]
            self._description = {"pipeline": getattr(analyzer, "__qualname__", "custom")}

    def configuration(self) -> dict[str, Any]:
        return {**self._description, "threshold": self.threshold}

    def decide(self, document: Any) -> tuple[bool, str | None]:
        """``(has_idiom, idiom named)`` for one analysed document."""
        spans = list(document.idioms)
        judged = [s for s in spans if s.label is not None or s.p_figurative is not None]
        if not judged:
            return bool(spans), (spans[0].idiom or spans[0].text) if spans else None
        figurative = [s for s in judged if s.label == "figurative" or (
            s.label is None and s.p_figurative is not None and s.p_figurative >= self.threshold)]
        if figurative:
            return True, figurative[0].idiom or figurative[0].text
        return False, None

    def predict(self, examples: Sequence[Any], *, progress: bool = True
                ) -> list[DetectionPrediction]:
        from tqdm import tqdm

        predictions = []
        with tqdm(total=len(examples), desc="idiomkit", unit="sent", disable=not progress) as bar:
            for start in range(0, len(examples), self.batch_size):
                batch = examples[start:start + self.batch_size]
                documents = self._analyze_many([e.text for e in batch])
                for example, document in zip(batch, documents):
                    has_idiom, idiom = self.decide(document)
                    spans = [{"idiom": s.idiom, "text": s.text, "p_figurative": s.p_figurative,
                              "label": s.label} for s in document.idioms]
                    predictions.append(DetectionPrediction(str(example.id), has_idiom, idiom,
                                                           detail={"spans": spans}))
                bar.update(len(batch))
        return predictions
