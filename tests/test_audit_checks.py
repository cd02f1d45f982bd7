"""Leakage checks, generic audit input, natural-distribution sampling and `idiomkit audit`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from idiomkit.audit.checks import (
    class_balance,
    duplicate_contexts,
    duplicates_within,
    expression_overlap,
    label_skew,
    macro_f1,
)
from idiomkit.audit.inputs import parse_labels, read_audit_input
from idiomkit.audit.leakage import check_splits
from idiomkit.audit.plans import Setting, plan_for
from idiomkit.audit.sampling import positives_from_examples, sample_negatives
from idiomkit.cli.app import app
from idiomkit.datasets import Example, load_dataset
from idiomkit.errors import ConfigError, DataError

runner = CliRunner()


def ex(i, text="s", idiom=None, label=None):
    return Example(id=str(i), text=text, idiom=idiom, label=label)


# --- metric functions on hand-made data ----------------------------------------------------

TRAIN = [
    ex(1, "He kicked the bucket last year.", "kick the bucket", "idiomatic"),
    ex(2, "She kicked the bucket over.", "kick the bucket", "literal"),
    ex(3, "They kicked the bucket at last.", "kick the bucket", "idiomatic"),
    ex(4, "Break the ice with a joke.", "break the ice", "idiomatic"),
    ex(5, "Spill the beans now.", "spill the beans", "literal"),
    ex(6, "Spilled beans everywhere.", "spill the beans", "literal"),
]
TEST = [
    ex(7, "he kicked the bucket LAST year!", "Kick the bucket", "literal"),
    ex(8, "Break-the-ice games at parties.", "break the ice", "idiomatic"),
    ex(9, "Spill the beans now, please.", "spill the beans", "literal"),
    ex(10, "Red tape everywhere in the office.", "red tape", "idiomatic"),
]


def test_expression_overlap_counts_examples_and_types():
    overlap = expression_overlap(TRAIN, TEST)
    assert overlap == {
        "test_examples": 4, "test_examples_seen": 3, "example_overlap": 0.75,
        "train_types": 3, "test_types": 4, "test_types_seen": 3, "type_overlap": 0.75,
    }


def test_label_skew_lookup_with_global_fallback():
    skew = label_skew(TRAIN, TEST)
    # lookup: kick -> idiomatic (2:1), break -> idiomatic, spill -> literal; "red tape" unseen
    # -> global majority: idiomatic 3 vs literal 3, tie broken by label string -> "idiomatic"
    assert skew["global_majority_label"] == "idiomatic"
    assert skew["accuracy"] == 0.75  # wrong only on example 7
    assert skew["seen"] == 3 and skew["seen_accuracy"] == pytest.approx(2 / 3)
    assert skew["global_majority_accuracy"] == 0.5
    assert skew["train_purity"] == pytest.approx(5 / 6)
    assert skew["macro_f1"] == pytest.approx(macro_f1(
        ["literal", "idiomatic", "literal", "idiomatic"],
        ["idiomatic", "idiomatic", "literal", "idiomatic"],
    ))


def test_label_skew_tie_inside_an_expression_goes_to_the_globally_frequent_label():
    train = [ex(1, idiom="a", label="x"), ex(2, idiom="a", label="y"), ex(3, idiom="b",
             label="y")]
    skew = label_skew(train, [ex(4, idiom="a", label="y")])
    assert skew["accuracy"] == 1.0  # "a" is 1:1, y is more frequent overall


def test_macro_f1_exact():
    # a: P 2/3 R 1 F 0.8; b: P 1 R 0.5 F 2/3
    assert macro_f1(["a", "a", "b", "b"], ["a", "a", "a", "b"]) == pytest.approx((0.8 + 2 / 3) / 2)


def test_duplicates_exact_and_near():
    dup = duplicate_contexts(TRAIN, TEST)
    # 7 equals 1 after normalisation; 9 differs from 5 by ", please" (5-gram Jaccard 0.68:
    # below 0.8), so only exact
    assert (dup["exact"], dup["near"], dup["same_label"]) == (1, 0, 0)
    loose = duplicate_contexts(TRAIN, TEST, threshold=0.6)
    assert (loose["exact"], loose["near"], loose["same_label"]) == (1, 1, 1)
    assert loose["examples"][1]["kind"] == "near" and loose["examples"][1]["train_id"] == "5"
    assert loose["any_share"] == 0.5


def test_class_balance_and_within_split_duplicates():
    balance = class_balance(TRAIN + [ex(11)])
    assert balance["counts"] == {"idiomatic": 3, "literal": 3}
    assert (balance["n"], balance["unlabelled"], balance["majority_share"]) == (6, 1, 0.5)
    assert duplicates_within(TRAIN + TEST[:1])["duplicated"] == 2


def test_check_splits_runs_every_setting():
    metrics = check_splits(
        {"train": TRAIN, "extra": TEST[:1], "test": TEST},
        [Setting("a", ("train",), ("test",)), Setting("b", ("train", "extra"), ("test",))],
    )
    assert set(metrics["balance"]) == {"train", "extra", "test"}
    assert metrics["settings"]["b"]["train_n"] == 7
    b_test = metrics["settings"]["b"]["evaluate"]["test"]
    assert b_test["duplicates"]["exact"] == 1
    # example 7 in train makes "kick" 2:2, and the tie goes to literal (4 vs 3 overall), which
    # is right for 7; "red tape" falls back to literal, wrong
    assert b_test["label_skew"]["accuracy"] == 0.75
    assert b_test["label_skew"]["global_majority_label"] == "literal"


def test_plan_for_unknown_dataset_without_train_test():
    with pytest.raises(ConfigError) as info:
        plan_for("mine", ("all",))
    assert info.value.code == "E471"
    assert plan_for("mine", ("train", "test"))[0].evaluate == ("test",)


# --- generic input -------------------------------------------------------------------------

GOOD_CSV = (
    "sentence,expression,label,split\n"
    "He kicked the bucket.,kick the bucket,idiomatic,train\n"
    "She kicked the bucket over.,kick the bucket,literal,train\n"
    "They spilled the beans.,spill the beans,figurative,test\n"
    "Beans spilled on the floor.,spilled,literal,test\n"
)


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_read_csv_input(tmp_path):
    data = read_audit_input(write(tmp_path, "a.csv", GOOD_CSV))
    assert [len(data.splits[s]) for s in ("train", "dev", "test")] == [2, 0, 2]
    third = data.splits["test"][0]
    assert (third.label, third.idiom, third.meta["span"]) == ("idiomatic", "spilled the beans",
                                                              [5, 22])
    assert not data.derived_split


def test_read_jsonl_input_with_offsets_and_label_mapping(tmp_path):
    rows = [
        {"text": "He kicked the bucket.", "start": 3, "end": 20, "label": 0, "split": "train"},
        {"text": "A bucket was kicked.", "start": 2, "end": 8, "label": 1, "split": "train"},
        {"text": "Red tape again.", "idiom": "red tape", "label": 0, "split": "test"},
        {"text": "Red tape roll.", "start": 0, "end": 8, "label": 1, "split": "test"},
    ]
    path = write(tmp_path, "a.jsonl", "\n".join(json.dumps(r) for r in rows) + "\n")
    data = read_audit_input(path, parse_labels("idiomatic=0,literal=1"))
    assert [e.label for e in data.splits["train"]] == ["idiomatic", "literal"]
    assert data.splits["train"][1].idiom == "bucket"


@pytest.mark.parametrize(
    "text, code, where",
    [
        (GOOD_CSV.replace("spilled,literal", "kicked,literal"), "E353", "line 5: the expression"),
        (GOOD_CSV.replace("figurative", "sarcastic"), "E354", "line 4: unknown label"),
        (GOOD_CSV.replace(",test\n", ",train\n"), "E355", "'test' split is empty"),
        (GOOD_CSV.replace("literal", "idiomatic"), "E356", "every row (lines 2-5)"),
        (GOOD_CSV.replace("label,split", "tag,split"), "E351", "no column 'label'"),
        (GOOD_CSV.replace("floor.,spilled,literal,test", "floor.,spilled,literal,holdout"),
         "E358", "line 5: unknown split"),
        (GOOD_CSV.replace("He kicked the bucket.,kick", ",kick"), "E352", "line 2"),
    ],
)
def test_bad_csv_input(tmp_path, text, code, where):
    with pytest.raises(DataError) as info:
        read_audit_input(write(tmp_path, "bad.csv", text))
    assert info.value.code == code and where in info.value.message


@pytest.mark.parametrize(
    "line, code, where",
    [
        ('{"text": "He kicked it.", "start": 3, "end": 40, "label": "literal"}', "E359",
         "line 2: offsets 3-40"),
        ('{"text": "He kicked it.", "start": 3, "end": 9, "expression": "red tape", '
         '"label": "literal"}', "E353", "line 2: the offsets 3-9 cover 'kicked'"),
        ("{not json", "E357", "line 2"),
    ],
)
def test_bad_jsonl_input(tmp_path, line, code, where):
    first = '{"text": "He kicked the bucket.", "expression": "kicked", "label": "idiomatic"}'
    with pytest.raises(DataError) as info:
        read_audit_input(write(tmp_path, "bad.jsonl", first + "\n" + line + "\n"))
    assert info.value.code == code and where in info.value.message


def test_bad_labels_option():
    with pytest.raises(ConfigError) as info:
        parse_labels("idiomatic")
    assert info.value.code == "E472"


# --- natural-distribution sampling ---------------------------------------------------------

POSITIVES = [
    ("He kicked the bucket.", (3, 20)),
    ("He spilled the beans yesterday.", (3, 20)),
    ("She broke the ice.", (4, 17)),
    ("I was over the moon.", (6, 19)),
]
POOL = [
    "She kicked the bucket across the yard.",
    "Don't spill the bean on the floor.",
    "I painted the fence.",
    "Nothing here.",
    "He kicked the bucket.",  # the positive itself: never a negative
]


def test_sampling_falls_back_words_lemmas_pos():
    result = sample_negatives(POSITIVES, POOL, seed=0)
    assert result.counts == {"words": 1, "lemmas": 1, "pos": 1, "unmatched": 1}
    found = [(n.positive, n.level, n.text[slice(*n.span)]) for n in result.negatives]
    assert found == [(0, "words", "kicked the bucket"), (1, "lemmas", "spill the bean"),
                     (2, "pos", "painted the fence")]


def test_sampling_is_seeded_and_uses_each_pool_sentence_once():
    positives = [("A big fish here.", (2, 10))] * 3
    pool = [f"Another big fish number {i}." for i in range(10)]
    first = sample_negatives(positives, pool, seed=3, levels=("words",))
    again = sample_negatives(positives, pool, seed=3, levels=("words",))
    assert first.negatives == again.negatives
    assert len({n.pool_index for n in first.negatives}) == 3
    others = {tuple(n.pool_index for n in sample_negatives(positives, pool, seed=s,
                                                           levels=("words",)).negatives)
              for s in range(5)}
    assert len(others) > 1


def test_sampling_levels_checked_and_positives_from_examples():
    with pytest.raises(ConfigError) as info:
        sample_negatives(POSITIVES, POOL, levels=("stems",))
    assert info.value.code == "E474"
    examples = [Example("1", "He kicked the bucket.", meta={"span": [3, 20]}), Example("2", "x")]
    assert positives_from_examples(examples) == [("He kicked the bucket.", (3, 20))]


# --- the command --------------------------------------------------------------------------


def test_cli_training_audit_checks_its_options():
    # without --checks-only the training audit runs (tests/test_audit_training.py); its
    # options are checked before any data is read
    result = runner.invoke(app, ["audit", "astitch", "--quick", "--trials", "0"])
    assert result.exit_code == 3 and "[E479]" in result.output


def test_cli_needs_exactly_one_source():
    result = runner.invoke(app, ["audit", "--checks-only"])
    assert result.exit_code == 3 and "[E473]" in result.output


def test_cli_input_file_writes_results_and_report(tmp_path):
    path = write(tmp_path, "mine.csv", GOOD_CSV)
    result = runner.invoke(
        app, ["audit", "--checks-only", "--input", str(path), "--output", str(tmp_path / "out"),
              "--format", "json"],
    )
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    checks = payload["metrics"]["settings"]["default"]["evaluate"]["test"]
    assert checks["expression_overlap"]["example_overlap"] == 0.0
    assert payload["task"] == "audit-checks" and payload["configuration"]["labels"]
    assert len(list((tmp_path / "out").glob("audit-checks-mine.csv-*.json"))) == 1
    assert "expression-disjoint" in (tmp_path / "out" / "audit-checks.md").read_text()


def test_cli_bad_input_names_the_row(tmp_path):
    path = write(tmp_path, "bad.csv", GOOD_CSV.replace("figurative", "sarcastic"))
    result = runner.invoke(app, ["audit", "--checks-only", "--input", str(path)])
    assert result.exit_code == 3 and "[E354]" in result.output and "line 4" in result.output


@pytest.mark.data
def test_cli_real_dataset(shared_data_dir, tmp_path):
    result = runner.invoke(
        app, ["audit", "epie-formal", "--checks-only", "--data-dir", str(shared_data_dir),
              "--output", str(tmp_path)],
    )
    assert result.exit_code == 0, result.output
    (path,) = tmp_path.glob("audit-checks-epie-formal-*.json")
    results = json.loads(path.read_text())
    test = results["metrics"]["settings"]["default"]["evaluate"]["test"]
    assert test["expression_overlap"]["example_overlap"] > 0.95  # a random split
    assert results["metrics"]["balance"]["test"]["n"] == 307
    report = (tmp_path / "audit-checks.md").read_text()
    assert "## epie-formal" in report and "| epie-formal | default | train | test | 307 |" in report


@pytest.mark.data
def test_astitch_zero_shot_is_expression_disjoint(shared_data_dir):
    def load(split):
        return load_dataset("astitch", split, shared_data_dir).examples

    zero, few = load("train_zero_shot"), load("train_few_shot")
    for split in ("dev", "test"):
        assert expression_overlap(zero, load(split))["test_types_seen"] == 0
        assert expression_overlap(zero + few, load(split))["type_overlap"] == 1
