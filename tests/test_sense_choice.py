"""AStitch Task 1B as a sense choice made by a Subtask A decision (classify/sense_choice.py)."""

from __future__ import annotations

import pytest

from idiomkit.classify.data import items_from_dataset
from idiomkit.classify.sense_choice import (
    is_capitalised,
    proper_nouns_literal,
    sense_choice_predictions,
)
from idiomkit.datasets import Example, load_dataset
from idiomkit.errors import DataError
from idiomkit.evaluate.figurative import binary_scores


def _group(group: str, text: str, idiom: str, rows: list[tuple[str, str | None]]):
    return [Example(id=f"{group}-{k}", text=text, idiom=idiom, label="0",
                    meta={"group": group, "paraphrase": paraphrase, "sense": sense,
                          "span": [text.lower().index(idiom), text.lower().index(idiom) +
                                   len(idiom)]})
            for k, (paraphrase, sense) in enumerate(rows)]


ROWS = [("Proper Noun", "proper-noun"), ("gold deposit", "literal"),
        ("source of profit", "non-literal"), ("Meta Usage", "meta-usage")]


def test_one_candidate_per_sentence_follows_the_subtask_a_decision():
    examples = (_group("a", "The shop is a gold mine.", "gold mine", ROWS)
                + _group("b", "They dug a gold mine.", "gold mine", ROWS)
                + _group("c", "She works at Gold Mine Games.", "gold mine", ROWS))
    p_figurative = {"The shop is a gold mine.": 0.9, "They dug a gold mine.": 0.1,
                    "She works at Gold Mine Games.": 0.3}
    predictions = sense_choice_predictions(
        examples, lambda items: [p_figurative[item.text] for item in items])
    assert predictions == [0, 0, 1, 0,  # figurative: the non-literal meaning
                           0, 1, 0, 0,  # literal
                           1, 0, 0, 0]  # not figurative and capitalised: a proper noun
    # a higher threshold turns the first sentence literal
    predictions = sense_choice_predictions(
        examples, lambda items: [p_figurative[item.text] for item in items], threshold=0.95)
    assert predictions[:4] == [0, 1, 0, 0]


def test_proper_nouns_first_overrides_a_figurative_decision():
    examples = (_group("a", "She works at Gold Mine Games.", "gold mine", ROWS)
                + _group("b", "The shop is a gold mine.", "gold mine", ROWS))
    always_figurative = lambda items: [0.9] * len(items)  # noqa: E731
    assert sense_choice_predictions(examples, always_figurative)[:4] == [0, 0, 1, 0]
    predictions = sense_choice_predictions(examples, always_figurative, proper_nouns_first=True)
    assert predictions == [1, 0, 0, 0,  # capitalised: the proper noun, whatever p says
                           0, 0, 1, 0]  # not capitalised: unchanged


@pytest.mark.data
@pytest.mark.parametrize("split", ["train_zero_shot", "dev"])
def test_capitalised_compounds_are_almost_never_idiomatic_in_astitch(shared_data_dir, split):
    """The premise of the ``+proper-nouns`` rows, on the real labels: turning every
    capitalised compound literal loses few idiomatic uses and fixes many literal ones."""
    items = items_from_dataset(load_dataset("astitch", split, shared_data_dir))
    capitalised = [i for i in items if is_capitalised(i.text, i.span)]
    idiomatic = sum(i.label == 1 for i in capitalised)
    assert len(capitalised) > 100
    assert idiomatic / len(capitalised) < 0.1
    ids = {i.id for i in capitalised}
    assert proper_nouns_literal(items, [1] * len(items)) == [int(i.id not in ids) for i in items]


def test_a_compound_missing_from_the_sense_inventory_is_a_coded_error():
    rows = [("Proper Noun", "proper-noun"), ("gold deposit", None), ("Meta Usage", "meta-usage")]
    with pytest.raises(DataError) as err:
        sense_choice_predictions(_group("a", "A gold mine.", "gold mine", rows),
                                 lambda items: [0.5] * len(items))
    assert err.value.code == "E318" and "--input-format paraphrase" in err.value.message


@pytest.mark.data
@pytest.mark.parametrize("split, floor", [("dev", 0.967), ("test", 0.956)])
def test_gold_subtask_a_labels_almost_solve_subtask_b(shared_data_dir, split, floor):
    """With a perfect figurative/literal decision, the choice is wrong only on meta uses,
    uncapitalised proper nouns and the second meaning of a compound: the ceiling of this
    route, measured on the real pairs."""
    gold_a = {e.text: e.label for e in load_dataset("astitch", split, shared_data_dir)}
    examples = load_dataset("astitch-1b", split, shared_data_dir).examples
    predictions = sense_choice_predictions(
        examples, lambda items: [float(gold_a[item.text] == "idiomatic") for item in items])
    scores = binary_scores([int(e.label) for e in examples], predictions)
    assert floor <= scores["macro_f1"] < 1.0
    # always literal is far below: the decision carries the task
    literal = sense_choice_predictions(examples, lambda items: [0.0] * len(items))
    assert binary_scores([int(e.label) for e in examples], literal)["macro_f1"] < 0.8


def test_the_table_says_which_rows_are_a_sense_choice():
    from idiomkit.classify.experiments import SENSE_CHOICE, markdown_table

    scores = {"macro_f1": 0.9}
    results = {
        "configuration": {"subtask": "1b", "language": "EN", "setting": "zero-shot",
                          "model": "minilm"},
        "split": "test",
        "metrics": {"selected_format": "span+mwe", "by_format": {
            "span+mwe": {"dev": scores, "test": scores, "method": SENSE_CHOICE},
            "paraphrase": {"dev": scores, "test": scores, "method": "classifier",
                           "paper": {"model": "XLNet", "dev_macro_f1": 0.852,
                                     "test_macro_f1": 0.875}}}},
        "reference": {"paper_best": {"model": "XLNet", "dev_macro_f1": 0.852,
                                     "test_macro_f1": 0.875}},
    }
    table = markdown_table(results)
    assert "| span+mwe (sense choice) | 0.900 | 0.900 |" in table
    assert "| paraphrase | 0.900 | 0.900 | XLNet | 0.852 | 0.875 |" in table
