"""The input configurations of IDEM's Table 2, idiom-ignorant and idiom-aware.

Each configuration turns (sentence, idiom, definition) into what a model reads:

- ``seq``: one sequence (sequence classification);
- ``pair``: two sequences, joined by the tokenizer's separator (sequence-pair classification);
- ``prompt``: a cloze prompt ending in "The emotion of this sentence is". The paper fills the
  blank with a masked-LM head and a verbalizer (OpenPrompt); idiomkit's packaged encoders have
  no MLM head, so the closest honest equivalent scores the prompt's embedding against an
  embedding of each label's verbalization (:func:`verbalize`), "label-description scoring";
- ``llm``: the zero-shot prompt for a generative model (section 4.3).

Templates follow Table 2 word for word, with plain ASCII quotes. A definition's final full stop
is dropped (Table 2's example quotes "…so as to help or hinder" without it). Where IDEM has no
definition for an idiom (a quarter of the rows), the clause naming the definition is left out
rather than filled with an empty string.

>>> print(build_input("seq-aware", "He went bananas.", "go bananas", "To get angry."))
... # doctest: +NORMALIZE_WHITESPACE
He went bananas. This sentence includes the idiomatic expression 'go bananas'. The definition
of this idiom is 'To get angry'.
>>> build_input("pair-ignorant", "He went bananas.")
('He went bananas.', 'This sentence may or may not contain an idiomatic expression.')
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import ConfigError
from .labels import DESCRIPTIONS, EMOTIONS


@dataclass(frozen=True)
class InputConfig:
    """One cell of Table 2: an approach and whether the model is told about the idiom."""

    name: str
    approach: str  # seq | pair | prompt | llm
    idiom_aware: bool
    title: str


CONFIGS: dict[str, InputConfig] = {
    c.name: c for c in (
        InputConfig("seq-ignorant", "seq", False, "sequence classification, idiom-ignorant"),
        InputConfig("seq-aware", "seq", True, "sequence classification, idiom-aware"),
        InputConfig("pair-ignorant", "pair", False, "sequence-pair classification, idiom-ignorant"),
        InputConfig("pair-aware", "pair", True, "sequence-pair classification, idiom-aware"),
        InputConfig("prompt-ignorant", "prompt", False, "prompt-style, idiom-ignorant"),
        InputConfig("prompt-aware", "prompt", True, "prompt-style, idiom-aware"),
        InputConfig("llm-ignorant", "llm", False, "zero-shot LLM, idiom-ignorant"),
        InputConfig("llm-aware", "llm", True, "zero-shot LLM, idiom-aware"),
    )
}

PAIR_IGNORANT_SECOND = "This sentence may or may not contain an idiomatic expression."
PROMPT_CLOZE = "The emotion of this sentence is"
#: version of the templates below; part of every cache key and results file
TEMPLATE_VERSION = "idem-table2.v1"


def get_config(name: str) -> InputConfig:
    """The configuration called ``name``, or a :class:`ConfigError` listing the valid names."""
    if name not in CONFIGS:
        raise ConfigError(
            "E452", f"Unknown emotion input configuration {name!r}. Available: "
            f"{', '.join(CONFIGS)}."
        )
    return CONFIGS[name]


def _definition(definition: str | None) -> str | None:
    text = (definition or "").strip()
    return text[:-1] if text.endswith(".") else text or None


def _check_idiom(config: InputConfig, idiom: str | None) -> str:
    if not config.idiom_aware:
        return ""
    if not idiom:
        raise ConfigError(
            "E453", f"The input configuration {config.name!r} is idiom-aware and needs the "
            "sentence's idiom; give one (or use an idiom-ignorant configuration).",
        )
    return idiom


def build_input(config: str | InputConfig, sentence: str, idiom: str | None = None,
                definition: str | None = None) -> str | tuple[str, str]:
    """What the model reads for ``sentence``: a string, or a (first, second) pair for ``pair``.

    >>> build_input("prompt-aware", "He went bananas.", "go bananas").split(". ")
    ... # doctest: +NORMALIZE_WHITESPACE
    ['He went bananas', "This sentence includes the idiomatic expression 'go bananas'",
     'The emotion of this sentence is']
    """
    config = config if isinstance(config, InputConfig) else get_config(config)
    idiom = _check_idiom(config, idiom)
    meaning = _definition(definition)
    if config.approach == "seq":
        if not config.idiom_aware:
            return sentence
        text = f"{sentence} This sentence includes the idiomatic expression '{idiom}'."
        return text + (f" The definition of this idiom is '{meaning}'." if meaning else "")
    if config.approach == "pair":
        if not config.idiom_aware:
            return sentence, PAIR_IGNORANT_SECOND
        return sentence, f"The idiom is '{idiom}'" + (
            f" which means '{meaning}'." if meaning else ".")
    if config.approach == "prompt":
        if not config.idiom_aware:
            return f"{sentence} {PROMPT_CLOZE}"
        clause = f" which means '{meaning}'." if meaning else "."
        return (f"{sentence} This sentence includes the idiomatic expression '{idiom}'{clause} "
                f"{PROMPT_CLOZE}")
    return llm_prompt(sentence, idiom if config.idiom_aware else None, definition)


def verbalize(label: str) -> str:
    """The text a prompt-style input is scored against for ``label``: the cloze filled in,
    with the label's one-line description.

    >>> verbalize("Pride")
    'The emotion of this sentence is pride: feeling pleased about an achievement.'
    """
    return f"{PROMPT_CLOZE} {label.lower()}: {DESCRIPTIONS[label]}."


def emotion_list() -> str:
    """The ``<LIST OF 36 EMOTIONS>`` of the paper's prompts: the labels, comma-separated."""
    return ", ".join(EMOTIONS)


def llm_prompt(sentence: str, idiom: str | None = None, definition: str | None = None) -> str:
    """The paper's zero-shot prompt (Table 2); idiom-aware when ``idiom`` is given.

    >>> llm_prompt("He went bananas.", "go bananas", "To get angry.").endswith(
    ...     "This sentence contains the idiom 'go bananas'. "
    ...     "The definition of this idiom is: 'To get angry'.")
    True
    """
    text = (f"You identify the emotion expressed in a sentence and respond with one of "
            f"{emotion_list()}. The sentence is \"{sentence}\"")
    if idiom:
        text += f" This sentence contains the idiom '{idiom}'."
        meaning = _definition(definition)
        if meaning:
            text += f" The definition of this idiom is: '{meaning}'."
    return text
