"""Emotion recognition for idiom-containing sentences (IDEM, 36 emotions).

- :mod:`.labels`: the 36 emotions, polarity, the paper's coarse mapping;
- :mod:`.inputs`: the Table 2 input configurations; :mod:`.llm_task`: the zero-shot LLM prompts;
- :mod:`.model`: :class:`EmotionModel`, the shipped default and trained models;
- :mod:`.prior`: the IDEM-only sibling prior; :mod:`.experiments`: Table 3 as runs;
- :mod:`.agreement`: Cohen's kappa of IDEM's annotators.

A pipeline adds ``Document.emotion`` with :meth:`EmotionModel.predict`::

    model = EmotionModel.load()                 # shipped, offline, NumPy runtime
    doc.emotion = model.predict([doc.text])[0]  # {"label": ..., "scores": {...}}
"""

from .agreement import cohen_kappa
from .inputs import CONFIGS, build_input
from .labels import COARSE, EMOTIONS, NEGATIVE, POSITIVE, coarse, is_emotion, polarity
from .llm_task import EmotionLLMTask
from .model import EmotionModel

__all__ = [
    "COARSE",
    "CONFIGS",
    "EMOTIONS",
    "NEGATIVE",
    "POSITIVE",
    "EmotionLLMTask",
    "EmotionModel",
    "build_input",
    "coarse",
    "cohen_kappa",
    "is_emotion",
    "polarity",
]
