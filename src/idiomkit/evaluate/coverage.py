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

import sys
import time
from collections.abc import Callable
from typing import Any

from tqdm import tqdm

from ..document import Document
from ..errors import IdiomkitError
from .identification import finder_configuration
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

    find: Callable[[str], Document] = finder.find if hasattr(finder, "find") else finder
    items = items_from_dataset(dataset, all_figurative=dataset.name == "idem")
    predicted: list[list[tuple[int, int]]] = []
    errors = 0
    started = time.perf_counter()
    for item in tqdm(items, desc=f"{TASK} {dataset.name}/{dataset.split}", unit="sent",
                     file=sys.stderr, disable=not progress):
        try:
            document = find(item.text)
        except IdiomkitError:
            errors += 1
            predicted.append([])
            continue
        predicted.append([(span.start, span.end) for span in document.idioms])
    seconds = time.perf_counter() - started

    def rate(label: int | None) -> dict[str, float]:
        keep = [k for k, item in enumerate(items) if label is None or item.label == label]
        return span_hit_rate([predicted[k] for k in keep], [items[k].span for k in keep])

    metrics = {"all": rate(None), "figurative": rate(1), "literal": rate(0), "errors": errors}
    extra = {"runtime": {"seconds": round(seconds, 3)}}
    return make_results(TASK, dataset, dataset.split, finder_configuration(finder), metrics,
                        n=len(items), extra=extra)
