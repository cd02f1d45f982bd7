from __future__ import annotations

import doctest
import json
from pathlib import Path

import pytest

from idiomkit.datasets import Dataset, Example, load_dataset
from idiomkit.document import Document, Span
from idiomkit.errors import DataError, InputError
from idiomkit.evaluate import (
    IDEM_REFERENCE,
    evaluate_identification,
    identification,
    render_report,
    write_results,
)

ROWS = [
    # index, idiom_id, gold idiom, sentence, emotion
    (0, 7, "spill the beans", "He spilled the beans at dinner.", "Regret"),
    (1, 8, "break the ice", "She broke the ice with a joke.", "Relief"),
    (2, 9, "hit the sack", "Exhausted, we hit the sack early.", "Relief"),
    (3, 10, "under the weather", "I am feeling under the weather.", "Sadness"),
]

#: what the toy finder returns per sentence, best first
FOUND = {
    "He spilled the beans at dinner.": [(3, 20, "Spill the beans")],
    # gold found but ranked second, plus a wrong candidate
    "She broke the ice with a joke.": [(25, 29, "joke"), (4, 17, "break the ice")],
    "Exhausted, we hit the sack early.": [],
}


def toy_finder(text: str) -> Document:
    """A deterministic finder: a fixed answer per sentence; an unknown sentence is an error."""
    if text not in FOUND:
        raise InputError("E101", f"toy finder cannot read {text!r}")
    spans = [Span(s, e, text[s:e], idiom=idiom) for s, e, idiom in FOUND[text]]
    return Document(text=text, idioms=spans)


@pytest.fixture
def tiny_idem(tmp_path) -> Path:
    folder = tmp_path / "idem"
    folder.mkdir()
    lines = [",idiom_id,idiom,sentence,emotion"]
    lines += [
        f'{i},{iid},{idiom},"{sentence}",{emotion}' for i, iid, idiom, sentence, emotion in ROWS
    ]
    text = "\n".join(lines) + "\n"
    (folder / "idem_test.csv").write_text(text, encoding="utf-8")
    (folder / "idem_train.csv").write_text(text, encoding="utf-8")
    return tmp_path


def test_metrics_on_a_tiny_idem_split(tiny_idem):
    dataset = load_dataset("idem", "test", data_dir=tiny_idem)
    results = evaluate_identification(toy_finder, dataset, progress=False)
    metrics = results["metrics"]
    # 3 predictions, 2 correct; gold found in 2 of 4 sentences; 1 ranked first
    assert metrics["all_candidates"]["precision"] == pytest.approx(2 / 3)
    assert metrics["all_candidates"]["recall"] == pytest.approx(2 / 4)
    assert metrics["all_candidates"]["f1"] == pytest.approx(2 * (2 / 3) * 0.5 / (2 / 3 + 0.5))
    assert metrics["selection_accuracy"] == pytest.approx(1 / 4)
    assert metrics["n_predictions"] == 3
    # the empty answer and the finder error both count as no prediction
    assert metrics["no_prediction"] == 2
    assert metrics["errors"] == 1
    assert results["n"] == 4
    assert results["configuration"] == {"method": "toy_finder"}
    assert results["dataset_checksum"] == dataset.checksum
    assert (results["task"], results["dataset"], results["split"]) == (
        "identification",
        "idem",
        "test",
    )


def test_paper_reference_only_for_idem_test(tiny_idem):
    test = evaluate_identification(
        toy_finder, load_dataset("idem", "test", data_dir=tiny_idem), progress=False
    )
    assert test["reference"] == IDEM_REFERENCE
    assert test["reference"]["IDEM rule-based (paper Table 4)"] == {
        "precision": 0.7695,
        "recall": 0.9413,
        "f1": 0.8468,
    }
    train = evaluate_identification(
        toy_finder, load_dataset("idem", "train", data_dir=tiny_idem), progress=False
    )
    assert "reference" not in train


class ToyFinder:
    """Finder-shaped: ``find`` plus the attributes a real Finder records."""

    method = "toy"
    keep_nested = False
    params = {"threshold": 0.5}
    lexicon = ["spill the beans", "break the ice"]

    def find(self, text: str) -> Document:
        return toy_finder(text)


def test_finder_object_configuration_is_recorded_and_extended(tiny_idem):
    dataset = load_dataset("idem", "test", data_dir=tiny_idem)
    results = evaluate_identification(
        ToyFinder(), dataset, progress=False, configuration={"note": "smoke"}, seed=3
    )
    assert results["configuration"] == {
        "method": "toy",
        "lexicon": {"name": "list", "size": 2},
        "keep_nested": False,
        "params": {"threshold": 0.5},
        "note": "smoke",
    }
    assert results["seed"] == 3


def test_unlinked_span_is_still_a_prediction():
    example = Example("1", "They spilled the beans.", idiom="spill the beans")
    dataset = Dataset("toy", "x", [example], files=[], checksum="sha256:0")

    def unlinked(text: str) -> Document:
        return Document(text, [Span(5, 22, text[5:22], idiom="")])

    metrics = evaluate_identification(unlinked, dataset, progress=False)["metrics"]
    # its surface text stands in for the idiom, so it lowers precision instead of vanishing
    assert metrics["n_predictions"] == 1
    assert metrics["all_candidates"]["precision"] == 0.0


def test_example_without_gold_idiom_is_a_data_error():
    dataset = Dataset("toy", "x", [Example("1", "text")], files=[], checksum="sha256:0")
    with pytest.raises(DataError, match="E309"):
        evaluate_identification(toy_finder, dataset, progress=False)


def test_progress_bar_goes_to_stderr_only_when_asked(tiny_idem, capsys):
    dataset = load_dataset("idem", "test", data_dir=tiny_idem)
    evaluate_identification(toy_finder, dataset, progress=False)
    quiet = capsys.readouterr()
    assert quiet.out == "" and quiet.err == ""
    evaluate_identification(toy_finder, dataset, progress=True)
    loud = capsys.readouterr()
    assert loud.out == "" and "identification idem/test" in loud.err


def test_results_file_renders_with_paper_rows(tiny_idem, tmp_path):
    dataset = load_dataset("idem", "test", data_dir=tiny_idem)
    path = write_results(
        evaluate_identification(toy_finder, dataset, progress=False), tmp_path / "r"
    )
    assert json.loads(path.read_text())["metrics"]["errors"] == 1
    report = render_report([path], percent=True)
    assert "| method=toy_finder | 66.67 | 50.00 | 57.14 | 25.00 | 3 | 2 | 1 | 4 |" in report
    assert (
        "| reference: IDEM hybrid rule-based + DISC (paper Table 4) | 75.95 | 96.47 | 84.99 |"
        in report
    )


def test_identification_doctests_pass():
    assert doctest.testmod(identification).failed == 0
