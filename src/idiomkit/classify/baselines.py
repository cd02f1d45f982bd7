"""Baselines that need no encoder: the majority label, and the expression's own majority.

The only-expression baseline (Boisson et al., "construction artifacts") predicts, for an
expression seen in training, the label it had most often there, and the overall majority
otherwise: it shows how much a dataset can be solved without reading the context.

>>> from idiomkit.classify.formats import Item
>>> train = [Item("a", "gold mine", 1), Item("b", "gold mine", 1), Item("c", "big fish", 0),
...          Item("d", "big fish", 0), Item("e", "big fish", 0)]
>>> MajorityBaseline().fit(train).predict([Item("x", "night owl")])
[0]
>>> OnlyExpressionBaseline().fit(train).predict([Item("x", "Gold Mine"), Item("y", "night owl")])
[1, 0]
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence

from ..evaluate.metrics import normalize_idiom
from .formats import Item


class MajorityBaseline:
    """Always the most frequent training label (ties: 1, figurative)."""

    def fit(self, items: Sequence[Item]) -> MajorityBaseline:
        counts = Counter(item.label for item in items)
        self.label = 1 if counts[1] >= counts[0] else 0
        return self

    def predict(self, items: Sequence[Item]) -> list[int]:
        return [self.label for _ in items]


class OnlyExpressionBaseline:
    """The expression's majority label in training; the overall majority for unseen ones."""

    def fit(self, items: Sequence[Item]) -> OnlyExpressionBaseline:
        self.fallback = MajorityBaseline().fit(items).label
        counts: dict[str, Counter] = defaultdict(Counter)
        for item in items:
            counts[normalize_idiom(item.idiom)][item.label] += 1
        self.by_expression = {
            key: (1 if c[1] > c[0] else 0 if c[0] > c[1] else self.fallback)
            for key, c in counts.items()}
        return self

    def predict(self, items: Sequence[Item]) -> list[int]:
        return [self.by_expression.get(normalize_idiom(item.idiom), self.fallback)
                for item in items]


def baseline_scores(train: Sequence[Item], evaluate: dict[str, Sequence[Item]]) -> dict:
    """Macro-F1 (and the rest of :func:`binary_scores`) of both baselines on each split."""
    from ..evaluate.figurative import binary_scores

    out: dict[str, dict] = {}
    for name, model in (("majority", MajorityBaseline()),
                        ("only_expression", OnlyExpressionBaseline())):
        model.fit(train)
        out[name] = {split: binary_scores([i.label for i in items], model.predict(items))
                     for split, items in evaluate.items()}
    return out
