"""Emotion label sets, Table 2 inputs, the LLM task, agreement and training-file checks."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from idiomkit.emotion.agreement import annotation_agreement, cohen_kappa
from idiomkit.emotion.data import carve_validation, load_emotion_data, read_emotion_csv
from idiomkit.emotion.inputs import CONFIGS, build_input, get_config, llm_prompt, verbalize
from idiomkit.emotion.labels import (
    COARSE,
    DESCRIPTIONS,
    EMOTIONS,
    NEGATIVE,
    POSITIVE,
    coarse,
    is_emotion,
    polarity,
)
from idiomkit.emotion.llm_task import EmotionLLMTask
from idiomkit.errors import ConfigError, DataError

SENTENCE = "He went out of his way to ignore me at the conference."
IDIOM = "go out of one's way"
DEFINITION = "To make an extra effort, so as to help or hinder."


# --- labels ---------------------------------------------------------------------------------

def test_thirty_six_distinct_emotions_split_22_negative_14_positive():
    assert len(set(EMOTIONS)) == 36
    assert len(NEGATIVE) == 22 and len(POSITIVE) == 14
    assert not set(NEGATIVE) & set(POSITIVE)


def test_coarse_mapping_partitions_the_36_emotions():
    members = [fine for group in COARSE.values() for fine in group]
    assert sorted(members) == sorted(EMOTIONS)
    assert list(COARSE) == ["Anger", "Boredom", "Sadness", "Desire", "Remorse", "Fear", "Joy"]
    # Joy holds exactly the positive emotions; every other coarse type is negative
    assert set(COARSE["Joy"]) == set(POSITIVE)
    assert {polarity(e) for g, fine in COARSE.items() if g != "Joy" for e in fine} == {"negative"}


def test_paper_examples_of_the_mapping():
    assert coarse("Envy") == "Desire" and coarse("Shame") == "Remorse"
    assert coarse("Confusion") == "Fear" and coarse("Reluctance") == "Boredom"
    assert polarity("Longing") == "negative" and polarity("Surprise") == "positive"


def test_labels_are_exact_and_unknown_ones_raise():
    assert not is_emotion("pride") and not is_emotion("Disappointment")
    with pytest.raises(KeyError):
        polarity("Disappointment")
    with pytest.raises(KeyError):
        coarse("Emotion: Loneliness")


def test_every_emotion_has_a_description():
    assert set(DESCRIPTIONS) == set(EMOTIONS)
    assert all(text and text[0].islower() for text in DESCRIPTIONS.values())


@pytest.mark.data
def test_label_set_is_the_one_idem_uses(shared_data_dir):
    train = load_emotion_data("train", shared_data_dir)
    test = load_emotion_data("test", shared_data_dir)
    assert {e.label for e in train.examples} == set(EMOTIONS)
    assert {e.label for e in test.examples} == set(EMOTIONS) - {"Lust"}
    assert not train.skipped and not test.skipped
    assert (len(train), len(test)) == (8729, 956)


# --- Table 2 inputs -------------------------------------------------------------------------

def test_table2_idiom_aware_templates_word_for_word():
    assert build_input("seq-aware", SENTENCE, IDIOM, DEFINITION) == (
        f"{SENTENCE} This sentence includes the idiomatic expression 'go out of one's way'. "
        "The definition of this idiom is 'To make an extra effort, so as to help or hinder'.")
    assert build_input("pair-aware", SENTENCE, IDIOM, DEFINITION) == (
        SENTENCE, "The idiom is 'go out of one's way' which means 'To make an extra effort, "
        "so as to help or hinder'.")
    assert build_input("prompt-aware", SENTENCE, IDIOM, DEFINITION) == (
        f"{SENTENCE} This sentence includes the idiomatic expression 'go out of one's way' "
        "which means 'To make an extra effort, so as to help or hinder'. The emotion of this "
        "sentence is")


def test_table2_idiom_ignorant_templates_ignore_the_idiom():
    assert build_input("seq-ignorant", SENTENCE, IDIOM, DEFINITION) == SENTENCE
    assert build_input("pair-ignorant", SENTENCE, IDIOM, DEFINITION) == (
        SENTENCE, "This sentence may or may not contain an idiomatic expression.")
    assert build_input("prompt-ignorant", SENTENCE) == (
        f"{SENTENCE} The emotion of this sentence is")


def test_missing_definition_leaves_the_definition_clause_out():
    assert build_input("seq-aware", SENTENCE, IDIOM, None) == (
        f"{SENTENCE} This sentence includes the idiomatic expression 'go out of one's way'.")
    assert build_input("pair-aware", SENTENCE, IDIOM, "  ")[1] == (
        "The idiom is 'go out of one's way'.")


def test_idiom_aware_input_without_an_idiom_is_a_config_error():
    with pytest.raises(ConfigError) as info:
        build_input("seq-aware", SENTENCE, None)
    assert info.value.code == "E453"
    with pytest.raises(ConfigError) as info:
        get_config("seq-awareness")
    assert info.value.code == "E452" and "pair-aware" in info.value.message


def test_every_configuration_builds_an_input():
    for name, config in CONFIGS.items():
        built = build_input(name, SENTENCE, IDIOM, DEFINITION)
        assert SENTENCE in (built[0] if isinstance(built, tuple) else built)
        assert (IDIOM in str(built)) == config.idiom_aware


def test_verbalizer_names_the_label_and_its_description():
    assert verbalize("Shock") == (
        "The emotion of this sentence is shock: being stunned by something sudden and upsetting.")


# --- zero-shot LLM configuration ------------------------------------------------------------

def test_llm_prompts_follow_the_paper():
    listed = ", ".join(EMOTIONS)
    assert llm_prompt(SENTENCE) == (
        f"You identify the emotion expressed in a sentence and respond with one of {listed}. "
        f"The sentence is \"{SENTENCE}\"")
    assert llm_prompt(SENTENCE, IDIOM, DEFINITION) == (
        f"You identify the emotion expressed in a sentence and respond with one of {listed}. "
        f"The sentence is \"{SENTENCE}\" This sentence contains the idiom 'go out of one's "
        "way'. The definition of this idiom is: 'To make an extra effort, so as to help or "
        "hinder'.")


def test_llm_task_prompts_only_use_the_idiom_when_aware():
    aware, ignorant = EmotionLLMTask(True), EmotionLLMTask(False)
    assert IDIOM in aware.prompts([SENTENCE], [IDIOM], [DEFINITION])[0]
    assert IDIOM not in ignorant.prompts([SENTENCE], [IDIOM], [DEFINITION])[0]
    assert aware.template_hash != ignorant.template_hash
    assert (aware.name, ignorant.name) == ("llm-aware", "llm-ignorant")


@pytest.mark.parametrize("answer, label", [
    ("Resentment", "Resentment"),
    ("resentment.", "Resentment"),
    ("The emotion expressed is **Anxiety**.", "Anxiety"),
    ("Emotion: Loneliness", "Loneliness"),
    ("  \n'Hope'\n", "Hope"),
    ("Frustration, or possibly Anger", "Frustration"),
    ("The sentence is hopeless", None),      # a word that only contains a label
    ("Disappointment", None),                # not one of the 36
    ("", None),
])
def test_llm_answers_are_parsed_to_one_of_the_36(answer, label):
    assert EmotionLLMTask.parse(answer) == label


def test_llm_task_runs_with_any_completion_callable():
    seen = []

    def complete(prompt: str) -> str:
        seen.append(prompt)
        return "Answer: Determination"

    labels = EmotionLLMTask(True).run(complete, [SENTENCE, "She was over the moon."],
                                      [IDIOM, "over the moon"], [DEFINITION, None])
    assert labels == ["Determination", "Determination"]
    assert "'over the moon'." in seen[1] and "definition" not in seen[1]


# --- agreement ------------------------------------------------------------------------------

def test_cohen_kappa_worked_example_and_bounds():
    # 4 of 6 agree (0.667); chance agreement 0.5 → kappa 1/3
    assert cohen_kappa([1, 1, 0, 0, 1, 0], [1, 0, 0, 0, 1, 1]) == pytest.approx(1 / 3)
    assert cohen_kappa([0, 1, 0, 1], [1, 0, 1, 0]) == pytest.approx(-1.0)
    with pytest.raises(ValueError):
        cohen_kappa([1], [1, 0])


@pytest.mark.data
def test_annotator_agreement_on_ideal_is_close_to_the_paper(shared_data_dir):
    result = annotation_agreement(shared_data_dir)
    assert result["n"] == 1000
    # the paper reports 0.62 over 1,047 sentences; the public files hold 1,000 of them
    assert result["kappa_ideal"] == pytest.approx(0.6016, abs=1e-4)
    assert result["both_ideal"] == 509


# --- training files -------------------------------------------------------------------------

def _write_csv(path: Path, rows: list[list[str]]) -> Path:
    with open(path, "w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["", "idiom_id", "idiom", "sentence", "emotion"])
        writer.writerows(rows)
    return path


def test_label_outside_the_36_is_reported_with_its_line_and_skipped(tmp_path, caplog):
    path = _write_csv(tmp_path / "train.csv", [
        ["0", "5", "over the moon", "She was over the moon.", "Happiness"],
        ["1", "5", "over the moon", "He was over the moon, sort of.", "Emotion: Happiness"],
        ["2", "6", "in the dark", "We were kept in the dark.", "Disappointment"],
        ["3", "6", "in the dark", "They kept us in the dark.", "Frustration"],
    ])
    examples, skipped = read_emotion_csv(path)
    assert [e.label for e in examples] == ["Happiness", "Frustration"]
    assert [(s.line, s.label, s.hint) for s in skipped] == [
        (3, "Emotion: Happiness", "Happiness"), (4, "Disappointment", None)]
    assert "line 3" in caplog.text and "never mapped" in caplog.text
    assert "line 4" in caplog.text
    assert examples[1].meta["line"] == 5


def test_training_file_without_an_emotion_column_is_a_data_error(tmp_path):
    path = tmp_path / "bad.csv"
    path.write_text("sentence,label\nHe went bananas.,Anger\n", encoding="utf-8")
    with pytest.raises(DataError) as info:
        read_emotion_csv(path)
    assert info.value.code == "E340"


def test_validation_split_is_seeded_and_keeps_every_idiom_in_fit():
    from idiomkit.datasets import Example

    rows = [Example(str(i), f"s{i}", idiom_id=str(i % 50), label=EMOTIONS[i % 36])
            for i in range(230)]
    fit, val = carve_validation(rows, fraction=0.1, seed=7)
    assert len(val) == 23 and len(fit) + len(val) == 230
    assert len({e.idiom_id for e in val}) == 23
    assert {e.idiom_id for e in val} <= {e.idiom_id for e in fit}
    assert carve_validation(rows, 0.1, seed=7) == (fit, val)
    assert carve_validation(rows, 0.1, seed=8)[1] != val
