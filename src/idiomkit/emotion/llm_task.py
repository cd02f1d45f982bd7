"""The zero-shot LLM configuration of IDEM (section 4.3) as a task: prompts in, labels out.

The task is pure: :meth:`EmotionLLMTask.prompts` builds the paper's prompts (Table 2) and
:meth:`EmotionLLMTask.parse` reads a model's free-text answer. Sending the prompts is the LLM
backend's job (``idiomkit.llm``): any callable ``complete(prompt: str) -> str`` can be passed
to :meth:`EmotionLLMTask.run`.

>>> task = EmotionLLMTask(idiom_aware=False)
>>> task.parse("Emotion: **Frustration**.")
'Frustration'
>>> task.parse("I think the sentence expresses shock, maybe fear.")
'Shock'
>>> task.parse("I cannot tell.") is None
True
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .inputs import TEMPLATE_VERSION, llm_prompt
from .labels import EMOTIONS

# longest first so that no label is found inside a longer one
_LABEL_RE = re.compile(
    r"\b(" + "|".join(sorted(map(re.escape, EMOTIONS), key=len, reverse=True)) + r")\b",
    re.IGNORECASE,
)
_CANONICAL = {label.casefold(): label for label in EMOTIONS}


@dataclass(frozen=True)
class EmotionLLMTask:
    """IDEM's zero-shot emotion prompt, idiom-ignorant or idiom-aware."""

    idiom_aware: bool = True

    @property
    def name(self) -> str:
        return "llm-aware" if self.idiom_aware else "llm-ignorant"

    @property
    def template_hash(self) -> str:
        """Changes whenever the prompt text changes; part of an LLM cache key."""
        probe = llm_prompt("<SENTENCE>", "<IDIOM>" if self.idiom_aware else None,
                           "<DEFINITION>")
        return hashlib.sha256(f"{TEMPLATE_VERSION}\n{probe}".encode()).hexdigest()[:12]

    def prompts(self, sentences: Sequence[str], idioms: Sequence[str | None] | None = None,
                definitions: Sequence[str | None] | None = None) -> list[str]:
        """One prompt per sentence (idioms and definitions are used only when idiom-aware)."""
        prompts = []
        for i, sentence in enumerate(sentences):
            idiom = idioms[i] if self.idiom_aware and idioms is not None else None
            definition = definitions[i] if definitions is not None else None
            prompts.append(llm_prompt(sentence, idiom, definition))
        return prompts

    @staticmethod
    def parse(answer: str) -> str | None:
        """The first of the 36 emotions named in ``answer`` (any case), else ``None``."""
        found = _LABEL_RE.search(answer or "")
        return _CANONICAL[found.group(1).casefold()] if found else None

    def run(self, complete: Callable[[str], str], sentences: Sequence[str],
            idioms: Sequence[str | None] | None = None,
            definitions: Sequence[str | None] | None = None) -> list[str | None]:
        """Prompt ``complete`` once per sentence and parse each answer."""
        return [self.parse(complete(p)) for p in self.prompts(sentences, idioms, definitions)]
