"""LLM tasks: a prompt template to fill and a parser to read the answer (task x backend).

>>> task = DetectionTask()
>>> task.template.key
'idiots-detection.v1'
>>> task.parse('{"hasIdiom": true, "idiom": "once in a blue moon"}').idiom
'once in a blue moon'
>>> emotion = EmotionTask(["Anger", "Fear"], aware=True)
>>> print(emotion.messages("He blew his top.", idiom="blow one's top",
...                        definition="To lose one's temper.")[0]["content"])
... # doctest: +NORMALIZE_WHITESPACE
You identify the emotion expressed in a sentence and respond with one of Anger, Fear.
The sentence is “He blew his top.” This sentence contains the idiom ‘blow one's top’.
The definition of this idiom is: ‘To lose one's temper’.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import ConfigError
from .base import Message
from .parse import (
    DetectionAnswer,
    EmotionAnswer,
    GenerationAnswer,
    parse_detection,
    parse_emotion,
    parse_generation,
)
from .prompts import PromptTemplate, load_template


class DetectionTask:
    """IdioTS idiom detection: the paper's system prompt, the sentence as the user message."""

    name = "idiots-detection"

    def __init__(self, version: int = 1) -> None:
        self.template: PromptTemplate = load_template(self.name, version)

    def messages(self, sentence: str) -> list[Message]:
        return self.template.render(sentence=sentence)

    def parse(self, text: str | None) -> DetectionAnswer:
        return parse_detection(text)


def _labels_text(labels: Sequence[str]) -> str:
    if not labels:
        raise ConfigError("E437", "An emotion task needs a non-empty list of labels.")
    return ", ".join(labels)


class EmotionTask:
    """IDEM zero-shot emotion recognition (Table 2), idiom-ignorant or idiom-aware.

    The idiom-aware prompt adds the sentence's idiom and its definition.
    """

    def __init__(self, labels: Sequence[str], *, aware: bool = False, version: int = 1) -> None:
        self.labels = tuple(labels)
        self.aware = aware
        self.name = "idem-emotion-aware" if aware else "idem-emotion-ignorant"
        self.template: PromptTemplate = load_template(self.name, version)

    def messages(self, sentence: str, idiom: str | None = None,
                 definition: str | None = None) -> list[Message]:
        values = {"labels": _labels_text(self.labels), "sentence": sentence}
        if self.aware:
            if not idiom:
                raise ConfigError(
                    "E438", "The idiom-aware emotion prompt needs the sentence's idiom; give "
                    "it, or use the idiom-ignorant task."
                )
            values.update(idiom=idiom, definition=(definition or "").strip().rstrip("."))
        return self.template.render(**values)

    def parse(self, text: str | None) -> EmotionAnswer:
        return parse_emotion(text, self.labels)


class GenerationTask:
    """IDEM data generation: five sentences for an idiom, each labelled with an emotion."""

    name = "idem-generation"

    def __init__(self, labels: Sequence[str], version: int = 1) -> None:
        self.labels = tuple(labels)
        self.template: PromptTemplate = load_template(self.name, version)

    def messages(self, idiom: str) -> list[Message]:
        return self.template.render(labels=_labels_text(self.labels), idiom=idiom)

    def parse(self, text: str | None) -> GenerationAnswer:
        return parse_generation(text, self.labels)
