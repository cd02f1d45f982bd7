"""The idiom sibling prior: what IDEM's other sentences of the same idiom say about a sentence.

IDEM was generated five sentences per idiom in one GPT-4 answer, and GPT-4 gave the five
sentences five *different* emotions: of 2,026 idioms in train only 3 repeat a label, and only 2
of the 956 test sentences share their label with a train sentence of the same idiom. The labels
of an idiom's other sentences are therefore strong evidence, mostly *against* those labels
(and, more weakly, for emotions that GPT-4 tends to pick together with them).

This module turns that into a log-odds adjustment learned from the training file alone:
pointwise mutual information between the labels of two sentences of the same idiom,

    adjust(k | siblings S) = sum over j in S of log((C[j,k] + a) / (E[j,k] + a))

where ``C[j,k]`` counts same-idiom sentence pairs labelled (j, k) and ``E[j,k]`` is the count
expected if labels were independent of the idiom; the model's log-probabilities plus
``weight * adjust`` give the final scores, ``weight`` chosen on validation data.

It is an artifact of how IDEM was built, not knowledge about emotions: it helps on IDEM's test
split (whose idioms all occur in train) and means nothing for other text, so idiomkit applies it
only in IDEM evaluation, never in ``idiomkit analyze``, and reports every result with and
without it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence

import numpy as np

from ..evaluate.metrics import normalize_idiom
from .labels import EMOTIONS

_INDEX = {label: i for i, label in enumerate(EMOTIONS)}


class SiblingPrior:
    """Label PMI between sentences of the same idiom, and each idiom's known labels.

    Happiness and Pride go together, Confusion and Frustration too. A sentence of "over the
    moon" whose sibling is labelled Happiness is unlikely to be Happiness again, likelier Pride:

    >>> prior = SiblingPrior.fit([("over the moon", "Happiness"), ("over the moon", "Pride"),
    ...                           ("on cloud nine", "Happiness"), ("on cloud nine", "Pride"),
    ...                           ("in the dark", "Confusion"), ("in the dark", "Frustration")])
    >>> adjust = prior.adjustment(["over the moon"], exclude=["Pride"])[0]
    >>> bool(adjust[EMOTIONS.index("Happiness")] < 0), bool(adjust[EMOTIONS.index("Pride")] > 0)
    (True, True)
    >>> float(prior.adjustment(["an idiom never seen"])[0].sum())
    0.0
    """

    def __init__(self, pmi: np.ndarray, idiom_labels: dict[str, np.ndarray],
                 smoothing: float) -> None:
        self.pmi = pmi
        self.idiom_labels = idiom_labels
        self.smoothing = smoothing

    @classmethod
    def fit(cls, pairs: Iterable[tuple[str | None, str]], smoothing: float = 1.0
            ) -> SiblingPrior:
        """From (idiom, label) pairs of the training sentences."""
        groups: dict[str, list[int]] = defaultdict(list)
        for idiom, label in pairs:
            if idiom and label in _INDEX:
                groups[normalize_idiom(idiom)].append(_INDEX[label])
        k = len(EMOTIONS)
        counts = np.zeros((k, k))
        totals = np.zeros(k)
        for labels in groups.values():
            for a_pos, a in enumerate(labels):
                for b_pos, b in enumerate(labels):
                    if a_pos != b_pos:
                        counts[a, b] += 1
            totals[labels] += len(labels) - 1  # pairs each label takes part in
        n_pairs = counts.sum()
        expected = np.outer(totals, totals) / n_pairs if n_pairs else np.zeros((k, k))
        pmi = np.log((counts + smoothing) / (expected + smoothing))
        idiom_labels = {idiom: np.bincount(labels, minlength=k).astype(np.float64)
                        for idiom, labels in groups.items()}
        return cls(pmi, idiom_labels, smoothing)

    def siblings(self, idiom: str | None, exclude: str | None = None) -> np.ndarray:
        """Counts of each label among the idiom's training sentences (minus one ``exclude``
        label: leave-one-out for a training sentence itself)."""
        found = self.idiom_labels.get(normalize_idiom(idiom)) if idiom else None
        counts = np.zeros(len(EMOTIONS)) if found is None else found.copy()
        if exclude is not None and counts[_INDEX[exclude]] > 0:
            counts[_INDEX[exclude]] -= 1
        return counts

    def adjustment(self, idioms: Sequence[str | None],
                   exclude: Sequence[str | None] | None = None) -> np.ndarray:
        """``[len(idioms), 36]`` log-odds adjustments (zeros for an unknown or missing idiom)."""
        rows = [self.siblings(idiom, exclude[i] if exclude is not None else None)
                for i, idiom in enumerate(idioms)]
        return np.stack(rows) @ self.pmi if rows else np.zeros((0, len(EMOTIONS)))


def apply_prior(log_probs: np.ndarray, adjustment: np.ndarray, weight: float) -> np.ndarray:
    """Scores after the prior: ``log_probs + weight * adjustment`` (argmax = prediction).

    >>> apply_prior(np.log([[0.6, 0.4]]), np.array([[-2.0, 0.0]]), 1.0).argmax(1).tolist()
    [1]
    """
    return log_probs + weight * adjustment


def choose_weight(log_probs: np.ndarray, adjustment: np.ndarray, gold: Sequence[int],
                  grid: Sequence[float] = (0.0, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0)
                  ) -> tuple[float, dict[float, float]]:
    """The weight in ``grid`` with the best weighted F1 on validation data (ties: smaller)."""
    from ..evaluate.emotion import emotion_scores

    scores = {w: emotion_scores(gold, apply_prior(log_probs, adjustment, w).argmax(1))
              ["weighted_f1"] for w in grid}
    best = max(grid, key=lambda w: (scores[w], -w))
    return best, scores
