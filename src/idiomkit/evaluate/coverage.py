"""Finder coverage: how many annotated expressions of a corpus the finder finds at all.

Identification (:mod:`.identification`) asks IDEM's question, which idiom out of the lexicon a
sentence holds. Corpora built around their own idiom lists (EPIE, PIE-English, AStitch) ask a
different one of a finder: is the annotated expression found where it is? A sentence counts as
hit when some span the finder returns overlaps the annotated span (:func:`span_hit_rate`),
whatever lexicon entry it links to, so a lexicon that words an idiom differently still counts.
Other idioms in the sentence are not annotated, so there is no precision.

Literal uses are counted apart (``literal``): the finder proposes *potential* idioms and the
classifier decides, so a literal use found is the finder doing its job.
"""

from __future__ import annotations

from typing import Any

from .identification import find_all, finder_configuration
from .metrics import span_hit_rate
from .results import make_results

TASK = "coverage"


def evaluate_coverage(finder: Any, dataset: Any, *, progress: bool = True) -> dict[str, Any]:
    """Run ``finder`` (a :class:`~idiomkit.Finder` or a ``text -> Document`` callable) over
    ``dataset`` and return a results object whose ``metrics`` hold :func:`span_hit_rate` over
    all annotated expressions (``all``), the figurative ones and the literal ones.

    An annotated span missing from the corpus is located as the classifier's data does
    (:func:`~idiomkit.classify.data.locate_spans`); those it cannot place are ``unlocated``.
    """
    from ..classify.data import items_from_dataset

    items = items_from_dataset(dataset, all_figurative=dataset.name == "idem")
    documents, errors, seconds = find_all(finder, [item.text for item in items],
                                          f"{TASK} {dataset.name}/{dataset.split}", progress)
    predicted = [[] if document is None else [(span.start, span.end) for span in document.idioms]
                 for document in documents]

    def rate(label: int | None) -> dict[str, float]:
        keep = [k for k, item in enumerate(items) if label is None or item.label == label]
        return span_hit_rate([predicted[k] for k in keep], [items[k].span for k in keep])

    metrics = {"all": rate(None), "figurative": rate(1), "literal": rate(0), "errors": errors}
    extra = {"runtime": {"seconds": round(seconds, 3)}}
    return make_results(TASK, dataset, dataset.split, finder_configuration(finder), metrics,
                        n=len(items), extra=extra)
