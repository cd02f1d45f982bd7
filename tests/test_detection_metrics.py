"""IdioTS detection metrics, the harness, the IdioTS-style set and the release-format reader."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from idiomkit.datasets import Dataset, Example, load_dataset
from idiomkit.datasets.idiots import build_idiots_style, detokenize, read_idiots_file
from idiomkit.document import Document, Span
from idiomkit.errors import DataError
from idiomkit.evaluate.detection import (
    IDIOTS_REFERENCE,
    DetectionPrediction,
    IdiomkitDetector,
    confusion,
    detection_scores,
    distractor_share,
    evaluate_detection,
    idiom_matches,
    markdown_table,
    score_predictions,
    true_positive_consistency,
)


@pytest.mark.parametrize(("tp", "fp", "tn", "fn", "name"), [
    (164, 86, 0, 0, "IdioTS paper: Llama-2-7b-chat"),
    (147, 68, 18, 17, "IdioTS paper: Mistral-7b-Instruct"),
    (162, 79, 7, 2, "IdioTS paper: Vicuna-7b"),
])
def test_paper_table1_is_reproduced_from_its_counts(tp, fp, tn, fn, name):
    scores = detection_scores(tp, fp, tn, fn)
    for metric in scores:
        # the paper prints three decimals (and Mistral's precision 147/215 = 0.684 as 0.680)
        tolerance = 0.005 if (name, metric) == ("IdioTS paper: Mistral-7b-Instruct",
                                                "precision") else 0.0006
        assert scores[metric] == pytest.approx(IDIOTS_REFERENCE[name][metric], abs=tolerance)


def test_paper_table2_consistency_ratios():
    # Mistral: 147 true positives, 133 with the correct reason -> 0.905
    predicted = [True] * 147 + [False] * 17
    named = ["spill the beans"] * 133 + ["something else"] * 14 + [None] * 17
    result = true_positive_consistency(predicted, [True] * 164, named, ["spill the beans"] * 164)
    assert result["true_positives"] == 147 and result["true_positives_correct"] == 133
    assert result["true_positive_consistency"] == pytest.approx(0.905, abs=0.0005)


def test_paper_table3_distractor_share():
    # Vicuna: 47 of 86 distractors given an idiomatic reading of their associated PIE
    predicted = [True] * 79 + [False] * 7
    named = ["break the ice"] * 47 + ["cut and tighten"] * 32 + [None] * 7
    result = distractor_share(predicted, [False] * 86, named, ["break the ice"] * 86)
    assert result["distractor_share"] == pytest.approx(0.546, abs=0.001)  # 47/86 = 0.5465


def test_no_answer_counts_as_wrong_on_both_classes():
    assert confusion([None, None], [True, False]) == {
        "tp": 0, "fp": 1, "tn": 0, "fn": 1, "no_answer": 2}


def test_confusion_rejects_misaligned_inputs():
    with pytest.raises(ValueError, match="same length"):
        confusion([True], [True, False])


@pytest.mark.parametrize(("named", "gold", "expected"), [
    ("spill the beans", "spill the beans", True),
    ("Spilled the beans", "spill the beans", True),
    ("to keep an eye on", "keep [pron] eye on", True),
    ("bring someone to their knees", "bring (somebody) to ([pron]) knees", True),
    ("'Around the clock'", "around the clock", True),
    ("the clock", "around the clock", True),  # content words all there ("around" is a particle)
    ("beans", "spill the beans", False),
    ("cut and tighten", "cut to the chase", False),
    ("He said that she spilled the beans about the party to everyone at work", "spill the beans",
     False),
    ("", "spill the beans", False),
])
def test_idiom_matches(named, gold, expected):
    assert idiom_matches(named, gold) is expected


def _data(examples):
    return Dataset("toy", "test", examples, files=[], checksum="sha256:0")


TOY = [
    Example("1", "He spilled the beans.", idiom="spill the beans", label="idiomatic"),
    Example("2", "The beans spilled on the floor.", idiom="spill the beans", label="literal"),
    Example("3", "She broke the ice at the party.", idiom="break the ice", label="idiomatic"),
    Example("4", "The ship broke the ice.", idiom="break the ice", label="literal"),
]


def test_score_predictions_counts_statuses():
    predictions = [
        DetectionPrediction("1", True, "spill the beans"),
        DetectionPrediction("2", True, "spill the beans"),
        DetectionPrediction("3", None, status="unparseable"),
        DetectionPrediction("4", None, status="error"),
    ]
    metrics, counts = score_predictions(TOY, predictions)
    assert metrics["unparseable"] == 1 and metrics["errors"] == 1
    assert (counts["tp"], counts["fp"], counts["tn"], counts["fn"]) == (1, 2, 0, 1)
    assert metrics["true_positive_consistency"] == 1.0
    assert metrics["distractor_share"] == 0.5


def _analyzer(figurative: bool):
    def analyze(text: str) -> Document:
        span = Span(0, 5, text[:5], idiom="spill the beans",
                    p_figurative=0.9 if "He" in text or "She" in text else 0.1)
        return Document(text, idioms=[span])
    analyze.__qualname__ = "toy"
    return analyze


def test_idiomkit_detector_uses_the_figurative_probability():
    detector = IdiomkitDetector(_analyzer(True))
    results, records = evaluate_detection(detector, _data(TOY), progress=False)
    metrics = results["metrics"]
    assert metrics["balanced_accuracy"] == 1.0 and metrics["specificity"] == 1.0
    assert results["task"] == "detection" and results["reference"] == IDIOTS_REFERENCE
    assert [r["predicted"] for r in records] == [True, False, True, False]
    assert {"accuracy", "misclassification_rate", "recall", "specificity", "precision",
            "balanced_accuracy", "true_positive_consistency", "distractor_share"} <= set(metrics)


def test_finder_alone_calls_every_found_idiom_idiomatic():
    detector = IdiomkitDetector(lambda text: Document(text, idioms=[Span(0, 2, "He")]))
    assert detector.decide(Document("x", idioms=[Span(0, 1, "x", idiom="a")])) == (True, "a")
    assert detector.decide(Document("x")) == (False, None)


def test_markdown_table_lists_runs_then_the_paper():
    detector = IdiomkitDetector(_analyzer(True))
    results, _ = evaluate_detection(detector, _data(TOY), progress=False)
    table = markdown_table([results]).splitlines()
    assert table[0].startswith("| system | Accuracy ↑ | MR ↓")
    assert table[2].startswith("| idiomkit (toy) | 1.000")
    assert len(table) == 2 + 1 + len(IDIOTS_REFERENCE)


def test_detokenize_moves_the_span():
    text, span = detokenize("‘ Keep an eye on him , ’ she said .", (2, 16))
    assert text == "‘Keep an eye on him,’ she said."
    assert text[span[0]:span[1]] == "Keep an eye on"


def _pool(source, n_literal, n_idiomatic):
    examples = [Example(f"{source}-l{i}", f"literal sentence number {i} about beans",
                        idiom=f"idiom {i % 3}", label="literal") for i in range(n_literal)]
    examples += [Example(f"{source}-i{i}", f"idiomatic sentence number {i} about beans",
                         idiom=f"idiom {i % 5}", label="idiomatic") for i in range(n_idiomatic)]
    return source, examples


def test_build_is_balanced_deterministic_and_pairs_expressions():
    pools = [_pool("a", 5, 20), _pool("b", 40, 60)]
    first = build_idiots_style(pools, per_class=20)
    assert first == build_idiots_style(pools, per_class=20)
    labels = [e.label for e in first]
    assert labels.count("literal") == labels.count("idiomatic") == 20
    by_source = {s: sum(e.meta["source"] == s and e.label == "literal" for e in first)
                 for s in "ab"}
    assert by_source == {"a": 5, "b": 15}
    assert all(e.meta["distractor"] == (e.label == "literal") for e in first)


def test_build_fails_clearly_when_a_source_is_too_small():
    with pytest.raises(DataError) as info:
        build_idiots_style([_pool("a", 3, 1)], per_class=3)
    assert info.value.code == "E333"


@pytest.mark.data
def test_idiots_style_set_from_shared_data(shared_data_dir):
    data = load_dataset("idiots-style", "test", shared_data_dir)
    assert len(data) == 240
    labels = [e.label for e in data]
    assert labels.count("idiomatic") == labels.count("literal") == 120
    assert {e.meta["source"] for e in data} == {"epie-formal", "pie-english"}
    assert all(e.idiom for e in data)
    assert " 's " not in " ".join(e.text for e in data)  # detokenised
    with_span = [e for e in data if "span" in e.meta]
    assert len(with_span) > 200


def test_release_reader_csv_with_labels(tmp_path):
    path = tmp_path / "IdioTS.csv"
    path.write_text("ID,Sentence,Idiom,Label\nidi07_1,Bob's your uncle!,Bob's your uncle,"
                    "idiomatic\nidi07_2,I didn't know Bob's your uncle.,Bob's your uncle,"
                    "distractor\n", encoding="utf-8")
    data = read_idiots_file(path)
    assert [(e.id, e.label, e.idiom) for e in data] == [
        ("idi07_1", "idiomatic", "Bob's your uncle"), ("idi07_2", "literal", "Bob's your uncle")]
    assert data.checksum.startswith("sha256:")


def test_release_reader_jsonl_with_id_suffixes(tmp_path):
    path = tmp_path / "idiots.jsonl"
    rows = [{"id": "idi25_i1", "sentence": "It's like talking to a brick wall.",
             "PIE": "It's like talking to a brick wall"},
            {"id": "idi25_d1", "sentence": "Let's talk about how a brick wall adds charm.",
             "PIE": "It's like talking to a brick wall"}]
    path.write_text("\n".join(json.dumps(r) for r in rows), encoding="utf-8")
    assert [e.label for e in read_idiots_file(path)] == ["idiomatic", "literal"]


def test_release_reader_rejects_rows_without_a_label(tmp_path):
    path = tmp_path / "bad.tsv"
    path.write_text("id\tsentence\tlabel\n1\tHe spilled the beans.\tmaybe\n", encoding="utf-8")
    with pytest.raises(DataError) as info:
        read_idiots_file(path)
    assert info.value.code == "E331" and "row 1" in info.value.message


def test_cli_eval_detection_on_a_release_file_with_idiomkit(tmp_path):
    from idiomkit.cli.app import app

    path = tmp_path / "idiots.csv"
    path.write_text("id,sentence,idiom,label\n1,He finally spilled the beans.,spill the beans,"
                    "idiomatic\n2,The sack of beans spilled.,spill the beans,literal\n",
                    encoding="utf-8")
    result = CliRunner().invoke(app, ["eval", "detection", "--system", "idiomkit", "--dataset",
                                      str(path), "--format", "json", "--no-progress",
                                      "--output", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    results = json.loads(result.stdout)
    assert results["metrics"]["recall"] == 1.0
    assert results["configuration"]["system"] == "idiomkit"
    assert len(list((tmp_path / "out").glob("*.records.jsonl"))) == 1
    table = CliRunner().invoke(app, ["eval", "detection-table", str(tmp_path / "out")])
    assert table.exit_code == 0 and "| idiomkit (idiots) |" in table.stdout


def test_cli_rejects_an_unknown_system():
    from idiomkit.cli.app import app

    result = CliRunner().invoke(app, ["eval", "detection", "--system", "gpt"])
    assert result.exit_code == 3 and "E439" in result.output
