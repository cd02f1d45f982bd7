"""The training audit: input settings, CV splits (lexical = expression-disjoint), the Optuna
search over frozen MiniLM features, the report, and bad input."""

from __future__ import annotations

import json
import os

import pytest

from idiomkit.audit.plans import Setting
from idiomkit.audit.splits import check_expression_disjoint, cv_folds
from idiomkit.audit.training import SETTINGS, Auditor, render
from idiomkit.datasets import Example
from idiomkit.errors import ConfigError, DataError

os.environ.setdefault("HF_HUB_OFFLINE", "1")

EXPRESSIONS = ["break the ice", "spill the beans", "hot potato", "cold feet", "big fish",
               "red tape", "open door", "black sheep", "low key", "high life", "top dog",
               "dead end"]
FIGURATIVE = "At the meeting she said it was {} for everyone involved."
LITERAL = "In the kitchen he put the {} on the wooden table."


def _example(i: int, expression: str, label: str, split: str = "train") -> Example:
    text = (FIGURATIVE if label == "idiomatic" else LITERAL).format(expression)
    start = text.index(expression)
    return Example(f"{split}-{i}", text, idiom=expression, label=label,
                   meta={"span": [start, start + len(expression)]})


def _splits(per: dict[str, int]) -> dict[str, list[Example]]:
    out, n = {}, 0
    for split, k in per.items():
        out[split] = []
        for expression in EXPRESSIONS:
            for j in range(k):
                out[split].append(_example(n, expression, ("idiomatic", "literal")[j % 2],
                                           split))
                n += 1
    return out


def test_render_settings_hide_what_they_should():
    e = _example(0, "spill the beans", "idiomatic")
    default, only, masked = (render(e, s) for s in SETTINGS)
    assert default[0] == e.text and default[0][slice(*default[1])] == "spill the beans"
    assert only == ("spill the beans", (0, 15))
    assert "spill" not in masked[0] and masked[0][slice(*masked[1])] == "[MASK]"
    with pytest.raises(ConfigError, match="E477"):
        render(e, "context_only")


@pytest.mark.parametrize("seed", [0, 1, 7])
def test_lexical_split_is_expression_disjoint(seed):
    examples = [e for split in _splits({"all": 6}).values() for e in split]
    folds = cv_folds(examples, "lexical", seed)
    tested = []
    for fold in folds:
        assert check_expression_disjoint(examples, fold) == 0
        train = {examples[i].idiom for i in (*fold.train, *fold.dev)}
        assert train.isdisjoint(examples[i].idiom for i in fold.test)
        assert set(fold.train).isdisjoint(fold.dev) and set(fold.dev).isdisjoint(fold.test)
        tested += fold.test
    assert sorted(tested) == list(range(len(examples)))  # each example tested exactly once


def test_random_split_is_seeded_70_10_20_and_overlaps():
    examples = [e for split in _splits({"all": 10}).values() for e in split]
    folds = cv_folds(examples, "random", 3)
    assert folds == cv_folds(examples, "random", 3)
    assert folds != cv_folds(examples, "random", 4)
    assert [(len(f.train), len(f.dev), len(f.test)) for f in folds][0] == (84, 12, 24)
    assert sum(check_expression_disjoint(examples, f) for f in folds) > 0


def test_split_errors():
    few = [_example(i, EXPRESSIONS[i % 3], "literal") for i in range(30)]
    with pytest.raises(DataError, match="E365"):
        cv_folds(few, "lexical")
    with pytest.raises(DataError, match="E366"):
        cv_folds(few[:5], "random")
    with pytest.raises(ConfigError, match="E476"):
        cv_folds(few, "by-author")


def test_one_class_or_empty_training_part_is_refused():
    one_class = [_example(i, "big fish", "literal") for i in range(20)]
    with pytest.raises(DataError, match="E367"):
        Auditor(one_class, progress=False)
    with pytest.raises(ConfigError, match="E479"):
        Auditor(one_class, trials=0, progress=False)


@pytest.fixture(scope="module")
def audit_splits_(tmp_path_factory):
    patch = pytest.MonkeyPatch()
    patch.setenv("IDIOMKIT_CACHE", str(tmp_path_factory.mktemp("cache")))
    yield _splits({"train": 6, "dev": 2, "test": 2})
    patch.undo()


@pytest.fixture(scope="module")
def audit_metrics(audit_splits_):
    from idiomkit.audit.run import audit_splits

    return audit_splits(audit_splits_, (Setting("default", ("train",), ("dev", "test")),),
                        trials=2, cv=("lexical",), progress=False)


def test_quick_audit_separates_the_settings(audit_metrics):
    # the label is carried by the context only: masked keeps it, only-expression cannot
    scores = audit_metrics["original"]["default"]["settings"]
    assert scores["default"]["macro_f1"]["test"] > 0.9
    assert scores["masked"]["macro_f1"]["test"] > 0.9
    assert scores["only_expression"]["macro_f1"]["test"] < 0.7
    assert scores["default"]["trials"] == 2
    lexical = audit_metrics["cv"]["lexical"]
    assert [f["test_seen_expressions"] for f in lexical["folds"]] == [0] * 5
    assert set(audit_metrics["checks"]["settings"]) == {"default"}


def test_feature_cache_is_reused(audit_metrics, audit_splits_):
    from idiomkit.audit.run import _pool
    from idiomkit.audit.training import FeatureExtractor, default_cache_note

    assert len(list(default_cache_note().glob("*.npy"))) == 3  # one per input setting
    pool, _, _ = _pool(audit_splits_)
    auditor = Auditor(pool, progress=False)
    features = auditor.features("masked")
    assert features.shape == (len(pool), 768)
    assert auditor.features("default").shape == (len(pool), 1536)
    assert auditor.extractor._net is None  # read from the cache: the encoder never loaded
    fresh = FeatureExtractor().features(auditor.inputs("masked"), cache=False)
    assert abs(fresh - features).max() < 1e-4


def test_report_and_chart(audit_metrics, tmp_path):
    from idiomkit.audit.training_report import bar_chart, render_markdown, verdict
    from idiomkit.evaluate.results import make_results

    class Source:
        name, files, checksum = "toy", [], "sha256:0"

    results = make_results("audit-training", Source, "train+dev+test",
                           {"classifier": "quick", "search": "optuna", "marking": "pooling",
                            "trials": 2}, audit_metrics, n=120, seed=0)
    line = verdict(results)
    assert line.startswith("toy (default -> test): masked-expression reaches")
    png = bar_chart(results, tmp_path / "chart.png")
    assert png.read_bytes()[:4] == b"\x89PNG"
    text = render_markdown(results, "chart.png")
    assert "| lexical 5-fold |" in text and "![macro-F1" in text
    json.dumps(results)  # the results object is JSON


def test_cli_refuses_bad_input_file(tmp_path):
    from typer.testing import CliRunner

    from idiomkit.cli.app import app

    bad = tmp_path / "bad.csv"
    bad.write_text("sentence,expression,label\nHe kicked the bucket.,spill the beans,idiomatic\n")
    result = CliRunner().invoke(app, ["audit", "--input", str(bad), "--quick"])
    assert result.exit_code != 0
    assert "E353" in result.output and "line 2" in result.output


def test_cli_option_errors(tmp_path):
    from typer.testing import CliRunner

    from idiomkit.cli.app import app

    runner = CliRunner()
    result = runner.invoke(app, ["audit", "--all", "--quick"])
    assert result.exit_code != 0 and "E481" in result.output
    result = runner.invoke(app, ["audit", "--input", str(tmp_path / "x.csv"), "--quick",
                                 "--trials", "0"])
    assert result.exit_code != 0 and "E479" in result.output
    good = tmp_path / "toy.csv"
    good.write_text("sentence,expression,label\n" + "".join(
        f"{e.text},{e.idiom},{e.label}\n" for e in _splits({"all": 4})["all"]))
    result = runner.invoke(app, ["audit", "--input", str(good), "--quick", "--cv", "author"])
    assert result.exit_code != 0 and "E480" in result.output


def test_a_subset_of_inputs_trains_only_those(audit_splits_, tmp_path):
    """--inputs masked trains Masked alone (its own search budget); the report shows the
    others as not run and gives no verdict, which needs Default and a baseline."""
    from idiomkit.audit.run import audit_splits
    from idiomkit.audit.training_report import render_markdown, rows, verdict
    from idiomkit.evaluate.results import make_results

    metrics = audit_splits(audit_splits_, (Setting("default", ("train",), ("dev", "test")),),
                           trials=1, cv=("random",), progress=False, inputs=("masked",))
    assert set(metrics["original"]["default"]["settings"]) == {"masked"}
    assert set(metrics["cv"]["random"]["macro_f1"]) == {"masked"}

    class Source:
        name, files, checksum = "toy", [], "sha256:0"

    results = make_results("audit-training", Source, "train+dev+test",
                           {"classifier": "quick", "search": "optuna", "marking": "pooling",
                            "trials": 1, "inputs": ["masked"]}, metrics, n=120, seed=0)
    first = rows(results)[0]
    assert first["default"] is None and first["masked"] > 0.9
    assert "no verdict" in verdict(results)
    assert "| default -> test | 24 | – | – | " in render_markdown(results)
    with pytest.raises(ConfigError) as info:
        Auditor(list(audit_splits_["train"]), inputs=("context",))
    assert info.value.code == "E487"
