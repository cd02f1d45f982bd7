"""Literal or figurative? Classifiers for a candidate idiom in its context, and baselines.

:class:`FigurativeClassifier` loads a trained classifier (the shipped ``default``, a user model,
or a folder); :func:`train_classifier` trains one; :mod:`.baselines` has the majority and
only-expression baselines; :mod:`.formats` the input formats of the AStitch paper and ours.
"""

from .formats import FORMATS, Item, get_format, render
from .model import ClassifierConfig, FigurativeClassifier, train_classifier

__all__ = [
    "FORMATS",
    "ClassifierConfig",
    "FigurativeClassifier",
    "Item",
    "get_format",
    "render",
    "train_classifier",
]
