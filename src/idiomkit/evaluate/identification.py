"""Idiom identification on a dataset with one gold idiom per sentence (IDEM, Table 4).

>>> from idiomkit.document import Document, Span
>>> from idiomkit.datasets import Dataset, Example
>>> data = Dataset("toy", "test", [Example("1", "He spilled the beans.", idiom="spill the beans")],
...                files=[], checksum="sha256:0")
>>> def finder(text):
...     return Document(text, idioms=[Span(3, 20, "spilled the beans", idiom="spill the beans")])
>>> results = evaluate_identification(finder, data, progress=False)
>>> results["metrics"]["all_candidates"], results["metrics"]["selection_accuracy"]
({'precision': 1.0, 'recall': 1.0, 'f1': 1.0}, 1.0)
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any

from tqdm import tqdm

from ..document import Document
from ..errors import DataError, IdiomkitError
from .metrics import identification_scores
from .results import make_results

TASK = "identification"

#: IDEM paper, Table 4 (IDEM test set, 956 sentences), and the authors' released rule-based code
#: run with the 5,000-idiom lexicon; fractions, "all candidates" view.
IDEM_REFERENCE: dict[str, dict[str, float]] = {
    "IDEM rule-based (paper Table 4)": {"precision": 0.7695, "recall": 0.9413, "f1": 0.8468},
    "IDEM hybrid rule-based + DISC (paper Table 4)": {
        "precision": 0.7595,
        "recall": 0.9647,
        "f1": 0.8499,
    },
    "IDEM released rule-based code, 5,000-idiom lexicon": {
        "precision": 0.555,
        "recall": 0.914,
        "f1": 0.691,
    },
}
#: (dataset, split) pairs the reference numbers were measured on
_REFERENCE_FOR = {("idem", "test"): IDEM_REFERENCE}


def finder_configuration(finder: Any) -> dict[str, Any]:
    """What to record about a :class:`~idiomkit.Finder` (method, lexicon, parameters) or about
    a plain ``text -> Document`` callable (its name)."""
    if not hasattr(finder, "find"):
        return {"method": getattr(finder, "__name__", type(finder).__name__)}
    configuration: dict[str, Any] = {"method": getattr(finder, "method", type(finder).__name__)}
    lexicon = getattr(finder, "lexicon", None)
    if lexicon is not None:
        configuration["lexicon"] = {
            "name": getattr(lexicon, "name", type(lexicon).__name__),
            "size": len(lexicon) if hasattr(lexicon, "__len__") else None,
        }
    if hasattr(finder, "keep_nested"):
        configuration["keep_nested"] = finder.keep_nested
    if getattr(finder, "params", None):
        configuration["params"] = dict(finder.params)
    return configuration


def find_all(finder: Any, texts: list[str], desc: str, progress: bool
             ) -> tuple[list[Document | None], int, float]:
    """Run ``finder`` (a :class:`~idiomkit.Finder` or a ``text -> Document`` callable) over
    ``texts`` with a progress bar: the Documents (``None`` where the finder raised an
    :class:`IdiomkitError`, which does not end the run), how many raised, and the seconds."""
    find: Callable[[str], Document] = finder.find if hasattr(finder, "find") else finder
    documents: list[Document | None] = []
    errors = 0
    started = time.perf_counter()
    for text in tqdm(texts, desc=desc, unit="sent", file=sys.stderr, disable=not progress):
        try:
            documents.append(find(text))
        except IdiomkitError:
            errors += 1
            documents.append(None)
    return documents, errors, time.perf_counter() - started


def evaluate_identification(
    finder: Any,
    dataset: Any,
    *,
    progress: bool = True,
    configuration: dict[str, Any] | None = None,
    seed: int | None = None,
) -> dict[str, Any]:
    """Run ``finder`` over ``dataset`` and return a results object (see :func:`make_results`).

    ``finder`` is a :class:`~idiomkit.Finder` or any callable ``text -> Document``; every idiom
    of the returned Document (``span.idiom``, or the span's text when it is not linked) is a
    prediction, in the Document's ranking. ``dataset`` is a :class:`~idiomkit.datasets.Dataset`
    whose examples carry a gold ``idiom``. An :class:`IdiomkitError` on one example counts as
    no prediction (``metrics["errors"]``) instead of ending the run. ``configuration`` is merged
    over what is read off the finder. Paper numbers are attached as ``reference`` for IDEM test.
    """
    gold: list[str] = []
    for example in dataset.examples:
        if not example.idiom:
            raise DataError(
                "E309",
                f"Example '{example.id}' of dataset '{dataset.name}' has no gold idiom; "
                "identification needs one per example. Use a dataset with idiom annotations.",
            )
        gold.append(example.idiom)
    documents, errors, seconds = find_all(
        finder, [example.text for example in dataset.examples],
        f"{TASK} {dataset.name}/{dataset.split}", progress)
    predictions = [[] if document is None else
                   [span.idiom or span.text for span in document.idioms]
                   for document in documents]

    scores = identification_scores(predictions, gold)
    metrics = {
        "all_candidates": {k: scores[k] for k in ("precision", "recall", "f1")},
        "selection_accuracy": scores["selection_accuracy"],
        "n_predictions": scores["n_predictions"],
        "no_prediction": scores["no_prediction"],
        "errors": errors,
    }
    extra: dict[str, Any] = {
        "runtime": {
            "seconds": round(seconds, 3),
            "sentences_per_second": round(len(gold) / seconds, 1) if seconds > 0 else None,
        }
    }
    reference = _REFERENCE_FOR.get((dataset.name, dataset.split))
    if reference is not None:
        extra["reference"] = reference
    return make_results(
        TASK,
        dataset,
        dataset.split,
        {**finder_configuration(finder), **(configuration or {})},
        metrics,
        n=len(gold),
        seed=seed,
        extra=extra,
    )
