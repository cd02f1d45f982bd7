"""Parsers fed the shapes LLM answers really take (IdioTS detection, IDEM emotion and
generation). Each case is an answer text and what must be read from it."""

from __future__ import annotations

import pytest

from idiomkit.llm.parse import (
    INFERRED,
    OK,
    UNPARSEABLE,
    parse_detection,
    parse_emotion,
    parse_generation,
)

# (answer, hasIdiom, idiom, status)
DETECTION_CASES = [
    # 1 the ideal answer
    ('{"hasIdiom": true, "idiom": "spill the beans", "meaning": "reveal a secret", '
     '"explanation": "Used figuratively."}', True, "spill the beans", OK),
    # 2 code fence with language tag
    ('```json\n{"hasIdiom": false, "idiom": "", "meaning": "", "explanation": "Literal."}\n```',
     False, None, OK),
    # 3 code fence without tag, prose before and after
    ('Sure! Here is the analysis:\n```\n{"hasIdiom": true, "idiom": "break the ice"}\n```\n'
     "Let me know if you need more.", True, "break the ice", OK),
    # 4 single quotes (Python dict style, as the prompt itself writes the keys)
    ("{'hasIdiom': True, 'idiom': 'hit the sack', 'meaning': 'go to bed'}", True, "hit the sack",
     OK),
    # 5 Python literals False/None
    ("{'hasIdiom': False, 'idiom': None, 'meaning': None, 'explanation': None}", False, None, OK),
    # 6 string "true"
    ('{"hasIdiom": "true", "idiom": "under the weather"}', True, "under the weather", OK),
    # 7 string "False" capitalised
    ('{"hasIdiom": "False", "idiom": "N/A"}', False, None, OK),
    # 8 yes / no instead of booleans
    ('{"hasIdiom": "yes", "idiom": "once in a blue moon"}', True, "once in a blue moon", OK),
    ('{"hasIdiom": "No", "idiom": "none"}', False, None, OK),
    # 10 trailing prose after the object
    ('{"hasIdiom": true, "idiom": "cost an arm and a leg"}\n\nThe idiom means it is expensive.',
     True, "cost an arm and a leg", OK),
    # 11 prose before the object
    ('The sentence is literal. {"hasIdiom": false, "idiom": null}', False, None, OK),
    # 12 trailing comma
    ('{"hasIdiom": true, "idiom": "let the cat out of the bag",}', True,
     "let the cat out of the bag", OK),
    # 13 bare (unquoted) keys
    ("{hasIdiom: true, idiom: \"bite the bullet\"}", True, "bite the bullet", OK),
    # 14 snake_case key
    ('{"has_idiom": true, "idiom": "call it a day"}', True, "call it a day", OK),
    # 15 different key case
    ('{"HasIdiom": TRUE, "Idiom": "pull someone\'s leg"}', True, "pull someone's leg", OK),
    # 16 missing hasIdiom but an idiom named
    ('{"idiom": "kick the bucket", "meaning": "die"}', True, "kick the bucket", INFERRED),
    # 17 missing hasIdiom and idiom explicitly empty
    ('{"idiom": null, "meaning": null, "explanation": "No idiom here."}', False, None, INFERRED),
    # 18 two JSON objects, the second one corrects the first
    ('{"hasIdiom": true, "idiom": "the last straw"}\n{"hasIdiom": false, "idiom": ""}', True,
     "the last straw", OK),
    # 19 nested under another key
    ('{"response": {"hasIdiom": true, "idiom": "on the ball"}}', True, "on the ball", OK),
    # 20 a list holding the object
    ('[{"hasIdiom": true, "idiom": "out of the blue"}]', True, "out of the blue", OK),
    # 21 truncated mid-string (max_tokens reached)
    ('{"hasIdiom": true, "idiom": "bite off more than one can chew", "meaning": "to take on',
     True, "bite off more than one can chew", OK),
    # 22 truncated before the object closes, with unescaped quotes inside a value
    ('{\n  "hasIdiom": true,\n  "idiom": "go the "extra" mile",\n  "meaning": "make', True,
     "go the", OK),
    # 23 key: value lines (YAML-ish), no braces
    ("hasIdiom: false\nidiom: none\nmeaning: none", False, None, OK),
    # 24 Markdown bold keys
    ("**hasIdiom:** true\n**idiom:** a piece of cake\n**meaning:** very easy", True,
     "a piece of cake", OK),
    # 25 plain prose "No, ..."
    ("No, there is no idiom in this sentence; the words are used literally.", False, None,
     INFERRED),
    # 26 prose naming the idiom
    ("Yes. The sentence contains the idiom 'spill the beans', meaning to reveal a secret.", True,
     "spill the beans", INFERRED),
    # 27 prose "does not contain an idiom"
    ("This sentence does not contain an idiom.", False, None, INFERRED),
    # 28 leading yes without naming it
    ("Yes, definitely.", True, None, INFERRED),
    # 29 empty answer
    ("", None, None, UNPARSEABLE),
    # 30 whitespace only
    ("   \n  ", None, None, UNPARSEABLE),
    # 31 refusal
    ("I'm sorry, but I can't help with that request.", None, None, UNPARSEABLE),
    # 32 object with none of the fields
    ('{"sentence": "He spilled the beans.", "language": "English"}', None, None, UNPARSEABLE),
    # 33 hasIdiom as 1/0
    ('{"hasIdiom": 1, "idiom": "break a leg"}', True, "break a leg", OK),
    # 34 hasIdiom as a list
    ('{"hasIdiom": ["true"], "idiom": ["under the weather", "feel blue"]}', True,
     "under the weather", OK),
    # 35 escaped quotes inside a value
    ('{"hasIdiom": true, "idiom": "\\"spill the beans\\""}', True, "spill the beans", OK),
    # 36 JSON with comments-like prose inside the fence and a second fence
    ("```json\n{\"hasIdiom\": false}\n```\n```json\n{\"note\": 1}\n```", False, None, OK),
    # 37 hasIdiom unreadable ("maybe") but an idiom named
    ('{"hasIdiom": "maybe", "idiom": "hold your horses"}', True, "hold your horses", INFERRED),
    # 38 curly typographic quotes around the idiom value
    ('{"hasIdiom": true, "idiom": "“by the skin of your teeth”"}', True,
     "by the skin of your teeth", OK),
    # 39 the model repeats the prompt's key list then answers with equals signs
    ("hasIdiom = true, idiom = cold turkey", True, "cold turkey", OK),
    # 40 an object closed by the fence only (no closing brace)
    ('```json\n{"hasIdiom": false, "idiom": ""\n```', False, None, OK),
    # 41 hasIdiom unreadable and no idiom field: nothing to go on
    ('{"hasIdiom": "maybe"}', None, None, UNPARSEABLE),
]


@pytest.mark.parametrize(("answer", "has_idiom", "idiom", "status"), DETECTION_CASES)
def test_detection_parser_reads_messy_answers(answer, has_idiom, idiom, status):
    parsed = parse_detection(answer)
    assert (parsed.has_idiom, parsed.idiom, parsed.status) == (has_idiom, idiom, status)


def test_there_are_at_least_thirty_detection_shapes():
    assert len(DETECTION_CASES) >= 30


def test_two_disagreeing_objects_are_noted():
    parsed = parse_detection('{"hasIdiom": true}\n{"hasIdiom": false}')
    assert parsed.has_idiom is True
    assert "disagree" in parsed.note


def test_unparseable_answers_keep_a_reason():
    parsed = parse_detection("¯\\_(ツ)_/¯")
    assert parsed.status == UNPARSEABLE and parsed.has_idiom is None and parsed.note


def test_none_answer_is_unparseable_not_an_error():
    assert parse_detection(None).status == UNPARSEABLE


LABELS = ["Anger", "Fear", "Happiness", "Sadness", "Surprise", "Regret", "Shame"]

EMOTION_CASES = [
    ("Sadness", "Sadness", OK),
    ("sadness.", "Sadness", OK),
    ("The emotion expressed in the sentence is **Anger**.", "Anger", OK),
    ('{"emotion": "fear"}', "Fear", OK),
    ("```json\n{\"label\": \"Surprise\"}\n```", "Surprise", OK),
    ("Emotion: Regret\nExplanation: the speaker wishes it had not happened, not anger.", "Regret",
     OK),
    ("It is not fear; the emotion expressed is happiness.", "Happiness", OK),
    ("The speaker is clearly angry.", "Anger", INFERRED),
    ("Anger, Fear, Happiness, Sadness, Surprise", None, UNPARSEABLE),
    ("", None, UNPARSEABLE),
    ("Joy", None, UNPARSEABLE),
]


@pytest.mark.parametrize(("answer", "label", "status"), EMOTION_CASES)
def test_emotion_parser(answer, label, status):
    parsed = parse_emotion(answer, LABELS)
    assert (parsed.label, parsed.status) == (label, status)


def test_generation_numbered_list_with_brackets_and_dashes():
    answer = (
        "Here are five sentences for the idiom 'let the cat out of the bag':\n\n"
        "1. She let the cat out of the bag about the party. (Emotion: Regret)\n"
        "2. \"Who let the cat out of the bag?\" he shouted. [Anger]\n"
        "3. I accidentally let the cat out of the bag - Shame\n"
        "4. **Sentence:** They let the cat out of the bag on purpose. **Emotion:** Joy\n"
        "5. Letting the cat out of the bag felt freeing. (Relief)\n"
    )
    parsed = parse_generation(answer, LABELS)
    assert parsed.items == (
        ("She let the cat out of the bag about the party.", "Regret"),
        ("Who let the cat out of the bag?\" he shouted.", "Anger"),
        ("I accidentally let the cat out of the bag", "Shame"),
    )
    # labels outside the allowed set are dropped, and counted
    assert [label for _, label in parsed.dropped] == ["Joy", "Relief"]
    assert parsed.status == OK


def test_generation_json_list():
    answer = ('```json\n[{"sentence": "He spilled the beans.", "emotion": "Shame"}, '
              '{"sentence": "Don\'t spill the beans!", "emotion": "Anxiety"}]\n```')
    parsed = parse_generation(answer, LABELS)
    assert parsed.items == (("He spilled the beans.", "Shame"),)
    assert parsed.dropped == (("Don't spill the beans!", "Anxiety"),)


def test_generation_sentence_then_emotion_lines():
    answer = ("Sentence 1: He finally bit the bullet.\nEmotion: Fear\n\n"
              "Sentence 2: We bit the bullet and paid.\nEmotion: regret")
    parsed = parse_generation(answer, LABELS)
    assert parsed.items == (("He finally bit the bullet.", "Fear"),
                            ("We bit the bullet and paid.", "Regret"))


def test_generation_markdown_table():
    answer = ("| Sentence | Emotion |\n|---|---|\n| He was over the moon. | Happiness |\n"
              "| She was over the moon about it. | Delight |")
    parsed = parse_generation(answer, LABELS)
    assert parsed.items == (("He was over the moon.", "Happiness"),)
    assert parsed.dropped == (("She was over the moon about it.", "Delight"),)


def test_generation_unlabelled_items_are_kept_apart():
    parsed = parse_generation("1. He kicked the bucket.\n2. She kicked the bucket.", LABELS)
    assert parsed.items == () and len(parsed.unlabelled) == 2
    assert parsed.status == UNPARSEABLE


def test_generation_nothing():
    assert parse_generation("", LABELS).status == UNPARSEABLE
