"""Prompt templates (verbatim from the papers), tasks, registries, cache keys, GGUF names."""

from __future__ import annotations

import pytest

from idiomkit.errors import ConfigError
from idiomkit.llm import (
    DetectionTask,
    EmotionTask,
    GenerationTask,
    available_backends,
    available_templates,
    create_backend,
    load_template,
)
from idiomkit.llm.cache import cache_key
from idiomkit.llm.detector import parse_system
from idiomkit.llm.gguf import available_ggufs, packaged_name, resolve_gguf
from idiomkit.llm.idem import emotion_labels
from idiomkit.llm.prompts import PromptTemplate

# IdioTS, Appendix A, Figure 1 (line breaks of the PDF layout joined within the paragraph)
IDIOTS_SYSTEM_PROMPT = (
    "You are a professional linguist specialising in figurative language and your task is to "
    "analyse English sentences that may contain an idiom, also known as an idiomatic "
    "expression. This is a definition of idiom: 'A phrase, expression, or group of words that "
    "has a meaning different from the individual meanings of the words themselves, and "
    "employed to convey ideas in a non-literal or metaphorical manner'.\n"
    "The response should be in strict JSON format including four fields:\n"
    "'hasIdiom': Is there an idiom in the sentence? Give a true/false answer.\n"
    "'idiom': Should include which is the idiom contained in the sentence.\n"
    "'meaning': Should explain the meaning of the identified idiom.\n"
    "'explanation': Should include a concise elaboration."
)


def test_idiots_template_v1_is_the_papers_prompt_verbatim():
    messages = DetectionTask().messages("She was playing it by ear.")
    assert messages == [
        {"role": "system", "content": IDIOTS_SYSTEM_PROMPT},
        {"role": "user", "content": "She was playing it by ear."},
    ]


def test_templates_are_versioned_files():
    known = available_templates()
    assert {"idiots-detection", "idem-emotion-ignorant", "idem-emotion-aware",
            "idem-generation"} <= set(known)
    assert all(1 in versions for versions in known.values())
    with pytest.raises(ConfigError) as info:
        load_template("idiots-detection", 99)
    assert info.value.code == "E436"


def test_template_hash_follows_the_text():
    base = PromptTemplate("t", 1, user="Is ${x} an idiom?")
    assert base.sha256 == PromptTemplate("t", 2, user="Is ${x} an idiom?").sha256
    assert base.sha256 != PromptTemplate("t", 1, user="Is ${x} idiomatic?").sha256
    assert load_template("idiots-detection").sha256 == DetectionTask().template.sha256


def test_missing_placeholder_is_a_config_error():
    with pytest.raises(ConfigError) as info:
        load_template("idem-emotion-aware").render(sentence="x")
    assert info.value.code == "E435" and "'labels'" in info.value.message


def test_idem_emotion_prompts_follow_table_2():
    labels = emotion_labels()
    assert len(labels) == 36
    listed = ", ".join(labels)
    sentence = "He went out of his way to ignore me at the conference."
    ignorant = EmotionTask(labels).messages(sentence)
    assert ignorant == [{"role": "user", "content":
                         "You identify the emotion expressed in a sentence and respond with one "
                         f"of {listed}. The sentence is “{sentence}”"}]
    aware = EmotionTask(labels, aware=True).messages(
        sentence, idiom="go out of one’s way",
        definition="To make an extra effort, so as to help or hinder.")
    assert aware[0]["content"].endswith(
        f"The sentence is “{sentence}” This sentence contains the idiom ‘go out of one’s way’. "
        "The definition of this idiom is: ‘To make an extra effort, so as to help or hinder’.")
    with pytest.raises(ConfigError) as info:
        EmotionTask(labels, aware=True).messages(sentence)
    assert info.value.code == "E438"


def test_idem_generation_prompt():
    message = GenerationTask(["Anger", "Fear"]).messages("go bananas")[0]["content"]
    assert message == (
        "You are good at generating sentences containing idioms and labelling them based on the "
        "emotion that they carry. The list of emotions is the following: Anger, Fear. Create 5 "
        "sentences for the idiom ‘go bananas’. Label them according to the emotion.")


def test_backend_registry():
    assert {"openai", "llamacpp", "local"} <= set(available_backends())
    with pytest.raises(ConfigError) as info:
        create_backend("bard")
    assert info.value.code == "E430" and "openai" in info.value.message
    local = create_backend("local", "qwen2.5-coder-0.5b-instruct")
    assert local.identity() == {"backend": "idiomkit.llm.llamacpp.v1", "model": "qwen2.5-0.5b"}


def test_cache_key_covers_backend_model_template_input_and_settings():
    identity = {"backend": "b", "model": "m"}
    messages = [{"role": "user", "content": "x"}]
    base = cache_key(identity, "t.v1", "h1", messages, {"seed": 0})
    assert base == cache_key(dict(identity), "t.v1", "h1", list(messages), {"seed": 0})
    variants = [
        cache_key({"backend": "b2", "model": "m"}, "t.v1", "h1", messages, {"seed": 0}),
        cache_key({"backend": "b", "model": "m2"}, "t.v1", "h1", messages, {"seed": 0}),
        cache_key(identity, "t.v1", "h2", messages, {"seed": 0}),
        cache_key(identity, "t.v1", "h1", [{"role": "user", "content": "y"}], {"seed": 0}),
        cache_key(identity, "t.v1", "h1", messages, {"seed": 1}),
    ]
    assert base not in variants and len(set(variants)) == len(variants)


def test_packaged_gguf_names():
    assert packaged_name("SmolLM2") == "smollm2-135m"
    assert packaged_name("qwen2.5-0.5b") == "qwen2.5-0.5b"
    assert packaged_name("llama-3-8b") is None
    assert available_ggufs()["smollm2-135m"] == "installed"
    assert resolve_gguf("smollm2-135m").name == "SmolLM2-135M-Instruct.Q4_1.gguf"
    with pytest.raises(ConfigError) as info:
        resolve_gguf("llama-3-8b")
    assert info.value.code == "E434"


def test_system_spec():
    assert parse_system("llm:qwen2.5-0.5b") == ("llm", "qwen2.5-0.5b")
    for bad in ("llm:", "gpt", "idiomkit:x"):
        with pytest.raises(ConfigError):
            parse_system(bad)
