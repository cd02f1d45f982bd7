"""AStitch Task 1B as a choice of one meaning per sentence, made with a Subtask A classifier.

Subtask B expands each example into one row per candidate meaning of its compound (the
literal meaning, each non-literal meaning, "Proper Noun", "Meta Usage"), exactly one of them
gold, and scores the rows as a binary task. The release's sense inventory says which
candidate is the literal meaning (``meta["sense"]``, see :mod:`idiomkit.datasets.astitch`),
so the rows of one sentence reduce to a decision a figurative/literal classifier makes:

- figurative (P(figurative) at or above the threshold): the non-literal meaning; where the
  compound has several (1 of the 30 English dev compounds, 2 of the 30 test ones), the
  first listed. On dev, given the gold Subtask A labels, that did better than choosing by
  sentence-embedding similarity (macro-F1 0.967 against 0.960) or by the meaning gold most
  often in the one- or few-shot training rows (0.959 / 0.967);
- otherwise a proper noun when every word of the compound is capitalised in the sentence
  ("Big Fish Games"; on English ``train_zero_shot`` 448 of the 455 proper-noun uses are, and
  65 of the 2,824 literal or figurative ones), else the literal meaning.

"Meta Usage" is never chosen (48 of 3,327 English training examples). The chosen row gets 1,
the others 0, so macro-F1 is over the same rows as the pair model's (format ``paraphrase``).

>>> choose(["literal", "non-literal", "proper-noun", "meta-usage"], 0.9, capitalised=False)
1
>>> choose(["literal", "non-literal", "proper-noun", "meta-usage"], 0.2, capitalised=True)
2
>>> choose(["proper-noun", "non-literal", "literal", "non-literal"], 0.7, capitalised=False)
1
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence

from ..errors import DataError
from .formats import Item

LITERAL, NON_LITERAL, PROPER_NOUN = "literal", "non-literal", "proper-noun"


def choose(senses: Sequence[str | None], p_figurative: float, *, capitalised: bool,
           threshold: float = 0.5, proper_nouns_first: bool = False) -> int:
    """Index of the chosen candidate among one sentence's ``senses`` (see the module doc);
    ``proper_nouns_first`` reads a capitalised compound as a proper noun whatever the
    classifier says.

    >>> choose(["literal", "non-literal", "proper-noun"], 0.9, capitalised=True,
    ...        proper_nouns_first=True)
    2
    """
    non_literal = [k for k, sense in enumerate(senses) if sense == NON_LITERAL]
    if proper_nouns_first and capitalised and PROPER_NOUN in senses:
        return list(senses).index(PROPER_NOUN)
    if p_figurative >= threshold and non_literal:
        return non_literal[0]
    if capitalised and PROPER_NOUN in senses:
        return list(senses).index(PROPER_NOUN)
    return list(senses).index(LITERAL)


def is_capitalised(text: str, span: tuple[int, int] | None) -> bool:
    """Whether every word of the compound at ``span`` starts with a capital letter.

    >>> is_capitalised("They sued Big Fish Games.", (10, 18)), is_capitalised("a big fish", (2, 10))
    (True, False)
    """
    if span is None:
        return False
    words = text[span[0]:span[1]].split()
    return bool(words) and all(word[:1].isupper() for word in words)


def proper_nouns_literal(items: Sequence[Item], predicted: Sequence[int]) -> list[int]:
    """Subtask A predictions (1 = figurative) with every capitalised compound made literal:
    AStitch labels a proper-noun use ("Big Fish Games") not idiomatic.

    >>> proper_nouns_literal([Item("They sued Big Fish Games.", "big fish", span=(10, 18)),
    ...                       Item("He is a big fish.", "big fish", span=(8, 16))], [1, 1])
    [0, 1]
    """
    return [0 if is_capitalised(item.text, item.span) else int(p)
            for item, p in zip(items, predicted)]


def sense_choice_predictions(
    examples: Sequence, p_figurative: Callable[[list[Item]], Sequence[float]], *,
    threshold: float = 0.5, proper_nouns_first: bool = False,
) -> list[int]:
    """1/0 per Subtask B row (in order), choosing one candidate per group.

    ``p_figurative`` maps Subtask A items (one per group: the sentence, its compound and
    context) to P(figurative); ``proper_nouns_first`` as in :func:`choose`.
    """
    from .data import items_from_dataset

    groups: dict[str, list[int]] = defaultdict(list)
    for index, example in enumerate(examples):
        groups[example.meta["group"]].append(index)
    unknown = {e.idiom for e in examples if e.meta.get("sense") is None}
    if unknown:
        raise DataError(
            "E318", f"AStitch Subtask B: the sense inventory has no literal meaning for "
            f"{', '.join(repr(i) for i in sorted(unknown, key=str))}, so their candidates "
            "cannot be told apart. Restore Extended_Noun_Compound_Senses_Dataset from the "
            "release (see astitch/SOURCE.md), or use --input-format paraphrase.")
    firsts = [examples[rows[0]] for rows in groups.values()]
    probs = p_figurative(items_from_dataset(firsts))
    predictions = [0] * len(examples)
    for first, rows, prob in zip(firsts, groups.values(), probs):
        senses = [examples[k].meta["sense"] for k in rows]
        chosen = choose(senses, float(prob), threshold=threshold,
                        capitalised=is_capitalised(first.text, first.meta.get("span")),
                        proper_nouns_first=proper_nouns_first)
        predictions[rows[chosen]] = 1
    return predictions


__all__ = ["choose", "is_capitalised", "proper_nouns_literal", "sense_choice_predictions"]
