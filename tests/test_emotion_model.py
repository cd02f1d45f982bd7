"""Emotion models: head, metrics, embedding cache, sibling prior, training, loading, commands.

The commands run on a tiny IDEM-shaped data folder written here (real files, real MiniLM),
so they take seconds; the real IDEM runs are `idiomkit eval emotion` / `idiomkit train emotion`.
"""

from __future__ import annotations

import csv
import json
import os
from pathlib import Path

import numpy as np
import pytest

from idiomkit.emotion.head import balanced_weights, fit_linear_head
from idiomkit.emotion.labels import EMOTIONS
from idiomkit.emotion.prior import SiblingPrior, choose_weight
from idiomkit.errors import ConfigError, ModelError
from idiomkit.evaluate.emotion import emotion_scores, per_emotion_table

os.environ.setdefault("HF_HUB_OFFLINE", "1")

# 12 idioms x 5 sentences, each idiom's sentences with five different emotions (as in IDEM)
_IDIOMS = [
    ("over the moon", ["Happiness", "Excitement", "Pride", "Relief", "Gratitude"]),
    ("in the dark", ["Confusion", "Frustration", "Anxiety", "Doubt", "Resentment"]),
    ("break the ice", ["Relief", "Happiness", "Anxiety", "Hope", "Determination"]),
    ("cry over spilt milk", ["Regret", "Sadness", "Frustration", "Guilt", "Hope"]),
    ("green with envy", ["Envy", "Resentment", "Admiration", "Sadness", "Longing"]),
    ("on cloud nine", ["Happiness", "Excitement", "Gratitude", "Pride", "Affection"]),
    ("hit the roof", ["Anger", "Frustration", "Shock", "Resentment", "Disgust"]),
    ("butterflies in one's stomach", ["Anxiety", "Excitement", "Fear", "Hope", "Affection"]),
    ("down in the dumps", ["Sadness", "Loneliness", "Boredom", "Desperation", "Pity"]),
    ("jump for joy", ["Happiness", "Excitement", "Relief", "Pride", "Surprise"]),
    ("bite the bullet", ["Determination", "Reluctance", "Fear", "Pride", "Anxiety"]),
    ("out of the blue", ["Surprise", "Shock", "Confusion", "Fascination", "Happiness"]),
]


def _sentence(idiom: str, emotion: str, k: int) -> str:
    return f"Story {k}: when it came to '{idiom}', she felt nothing but {emotion.lower()}."


@pytest.fixture(scope="module")
def tiny_data(tmp_path_factory) -> Path:
    """An IDEM-shaped data folder: 48 train and 12 test sentences and a lexicon."""
    root = tmp_path_factory.mktemp("data")
    (root / "idem").mkdir()
    header = ["", "idiom_id", "idiom", "sentence", "emotion"]
    train, test = [header], [header]
    for idiom_id, (idiom, emotions) in enumerate(_IDIOMS):
        for k, emotion in enumerate(emotions):
            row = [str(5 * idiom_id + k), str(idiom_id), idiom, _sentence(idiom, emotion, k),
                   emotion]
            (test if k == 4 else train).append(row)
    for name, rows in (("idem_train.csv", train), ("idem_test.csv", test)):
        with open(root / "idem" / name, "w", encoding="utf-8", newline="") as handle:
            csv.writer(handle).writerows(rows)
    with open(root / "idem" / "idiom_lexicon.csv", "w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["Idiom", "definition", "idiom_id"])
        for idiom_id, (idiom, _) in enumerate(_IDIOMS):
            writer.writerow([idiom, f"A saying about {idiom}.", f"{idiom_id}.0"])
    return root


@pytest.fixture()
def cache(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("IDIOMKIT_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


# --- head and metrics -----------------------------------------------------------------------

def test_linear_head_fits_separable_data_and_is_deterministic():
    rng = np.random.default_rng(0)
    centres = rng.normal(size=(3, 5)) * 4
    labels = np.repeat(np.arange(3), 20)
    features = centres[labels] + rng.normal(size=(60, 5))
    first = fit_linear_head(features, labels, 4, l2=1e-3)
    again = fit_linear_head(features, labels, 4, l2=1e-3)
    assert (first.logits(features).argmax(1) == labels).all()
    np.testing.assert_array_equal(first.weight, again.weight)
    assert first.proba(features).sum(1) == pytest.approx(np.ones(60), abs=1e-5)
    with pytest.raises(ConfigError):
        fit_linear_head(features, labels[:5], 4)


def test_balanced_weights_give_each_present_class_the_same_total():
    labels = np.array([0, 0, 0, 1, 2, 2])
    weights = balanced_weights(labels, 4)
    totals = np.bincount(labels, minlength=4) * weights
    assert totals[:3] == pytest.approx([2.0, 2.0, 2.0]) and weights[3] == 0.0


def test_emotion_scores_match_scikit_learn():
    from sklearn.metrics import accuracy_score, f1_score

    rng = np.random.default_rng(1)
    gold = rng.integers(0, 36, 400)
    predicted = np.where(rng.random(400) < 0.5, gold, rng.integers(0, 36, 400))
    scores = emotion_scores(gold, predicted)
    assert scores["accuracy"] == pytest.approx(accuracy_score(gold, predicted))
    assert scores["weighted_f1"] == pytest.approx(f1_score(gold, predicted, average="weighted"))
    assert scores["macro_f1"] == pytest.approx(f1_score(gold, predicted, average="macro"))
    table = per_emotion_table(gold, predicted)
    assert [row["emotion"] for row in table] == list(EMOTIONS)
    assert sum(row["support"] for row in table) == 400


# --- embedding cache ------------------------------------------------------------------------

def test_embedding_cache_encodes_once_and_survives_keys_ending_in_nul(cache):
    from idiomkit.emotion.embeddings import EmbeddingCache, _key

    # a text whose key ends in a NUL byte: NumPy's fixed-width bytes would drop it
    nul_text = next(f"text {i}" for i in range(5000)
                    if _key("minilm", 128, f"text {i}", None).endswith(b"\0"))
    texts = ["She spilled the beans.", nul_text, "She spilled the beans."]
    first = EmbeddingCache("minilm")
    vectors = first.encode(texts)
    assert vectors.shape == (3, 384)
    np.testing.assert_array_equal(vectors[0], vectors[2])
    shards = sorted((cache / "emotion-embeddings" / "minilm").glob("*.npz"))
    assert len(shards) == 1
    # a fresh cache reads the shard back and needs no encoder at all
    fresh = EmbeddingCache("minilm")
    fresh._encoder = "unused"  # any use of the encoder would fail
    np.testing.assert_array_equal(fresh.encode(texts), vectors)
    pair = fresh.__class__("minilm").encode(["She spilled the beans."], ["It was a secret."])
    assert not np.allclose(pair[0], vectors[0])


# --- sibling prior --------------------------------------------------------------------------

@pytest.mark.data
def test_sibling_prior_on_idem(shared_data_dir):
    from idiomkit.emotion.data import load_emotion_data

    train = load_emotion_data("train", shared_data_dir)
    test = load_emotion_data("test", shared_data_dir)
    prior = SiblingPrior.fit((e.idiom, e.label) for e in train.examples)
    # IDEM's generation artifact: a test sentence almost never repeats a sibling's emotion
    repeats = sum(prior.siblings(e.idiom)[EMOTIONS.index(e.label)] > 0 for e in test.examples)
    assert repeats == 2
    adjust = prior.adjustment([e.idiom for e in test.examples])
    gold = np.asarray([EMOTIONS.index(e.label) for e in test.examples])
    siblings = np.stack([prior.siblings(e.idiom) for e in test.examples]) > 0
    # sibling labels are pushed down (a label never co-occurs with itself: PMI <= 0)
    assert adjust[siblings].mean() < -2 and (np.diag(prior.pmi) <= 0).all()
    # with a uniform model, the prior alone already beats chance by far
    weight, scores = choose_weight(np.zeros((len(gold), 36)), adjust, gold)
    assert weight > 0 and scores[weight] > 0.05


# --- trained models -------------------------------------------------------------------------

def test_emotion_config_is_validated():
    from idiomkit.emotion.model import EmotionConfig

    with pytest.raises(ConfigError):
        EmotionConfig(input="prompt-aware").check()
    with pytest.raises(ConfigError):
        EmotionConfig(class_weight="sometimes").check()
    with pytest.raises(ConfigError):
        EmotionConfig(train_layers=0).check()


def test_unknown_model_is_a_coded_error():
    from idiomkit.emotion.model import EmotionModel

    with pytest.raises(ModelError) as info:
        EmotionModel.load("no-such-emotion-model")
    assert info.value.code == "E650"


def test_shipped_default_loads_offline_and_predicts():
    from idiomkit.emotion.model import EmotionModel

    model = EmotionModel.load()
    assert model.card["task"] == "emotion" and "command" in model.card
    assert "IDEM" in model.card["data"]["train"]["dataset"]
    texts = ["I am so grateful for everything you did for me, thank you!",
             "He was absolutely furious and slammed the door in rage."]
    probs = model.predict_proba(texts)
    assert probs.shape == (2, 36) and probs.sum(1) == pytest.approx([1.0, 1.0], abs=1e-4)
    out = model.predict(texts, top=3)
    assert out[0]["label"] == "Gratitude" and len(out[0]["scores"]) == 3
    assert out[1]["label"] in ("Anger", "Frustration", "Resentment")
    assert model.predict([]) == []


def test_shipped_mpnet_model_loads_when_mpnet_is_installed():
    from idiomkit.emotion.model import EmotionModel
    from idiomkit.models.resolve import packaged_models

    if packaged_models().get("mpnet") is None:
        pytest.skip("the MPNet parts are not installed (optional; see MODELS.md)")
    model = EmotionModel.load("idem-mpnet")
    assert model.config.base == "mpnet" and type(model.runtime).__name__ == "TorchRuntime"
    out = model.predict(["I am so grateful for everything you did for me, thank you!"])
    assert out[0]["label"] == "Gratitude"


def test_train_save_load_roundtrip_numpy_matches_torch(tiny_data, cache, tmp_path):
    from idiomkit.emotion.data import load_emotion_data
    from idiomkit.emotion.model import EmotionConfig, EmotionModel
    from idiomkit.emotion.train import train_emotion_model
    from idiomkit.models.train import TrainConfig

    train = load_emotion_data("train", tiny_data)
    config = EmotionConfig(lora_rank=4, train_layers=1)
    settings = TrainConfig(epochs=1, batch_size=16, lr=5e-3, seed=3, threads=1)
    model, result = train_emotion_model(train.examples[:40], train.examples[40:],
                                        train.definitions, config, settings, progress=False)
    again, _ = train_emotion_model(train.examples[:40], train.examples[40:],
                                   train.definitions, config, settings, progress=False)
    np.testing.assert_array_equal(model.head["head.weight"], again.head["head.weight"])
    texts = [e.text for e in train.examples[:5]]
    torch_probs = model.predict_proba(texts)
    model.save(tmp_path / "m", {"name": "m", "seed": 3, "data": {}, "metrics": {}})
    loaded = EmotionModel.load(tmp_path / "m")
    assert type(loaded.runtime).__name__ == "NumpyRuntime"
    np.testing.assert_allclose(loaded.predict_proba(texts), torch_probs, atol=1e-4)
    # the adapters sit in the top layer only
    from safetensors.numpy import load_file

    keys = load_file(str(tmp_path / "m" / "model.safetensors"))
    assert {k.split(".")[2] for k in keys if "lora" in k} == {"5"}


# --- commands -------------------------------------------------------------------------------

def _run(args):
    from typer.testing import CliRunner

    from idiomkit.cli.app import app

    return CliRunner().invoke(app, args)


def test_eval_emotion_command_runs_frozen_and_model_rows(tiny_data, cache, tmp_path):
    out = tmp_path / "results"
    result = _run(["eval", "emotion", "--data-dir", str(tiny_data), "--config",
                   "seq-ignorant,prompt-aware,model,llm-aware", "--format", "json",
                   "--output", str(out), "--no-progress"])
    assert result.exit_code == 0, result.output
    results = json.loads(result.stdout[result.stdout.index("{"):])
    assert results["task"] == "emotion" and results["n"] == 12
    names = [run["name"] for run in results["runs"]]
    assert names == ["seq-ignorant/minilm", "prompt-aware/minilm", "model", "llm-aware"]
    assert results["runs"][3]["status"] == "not run"
    for name in ("seq-ignorant/minilm", "prompt-aware/minilm", "model"):
        metrics = results["metrics"][name]
        assert set(metrics) == {"accuracy", "weighted_f1", "macro_f1"}
        assert 0 <= metrics["weighted_f1"] <= 1
    model_run = results["runs"][2]
    assert "without_prior" in model_run and model_run["reference"]
    assert (out / "confusion-model.png").stat().st_size > 1000
    assert len(list(out.glob("emotion-idem-test-*.json"))) == 1
    # same seed, same numbers
    again = _run(["eval", "emotion", "--data-dir", str(tiny_data), "--config",
                  "seq-ignorant,model", "--format", "json", "--no-progress"])
    rerun = json.loads(again.stdout[again.stdout.index("{"):])
    for name in ("seq-ignorant/minilm", "model"):
        assert rerun["metrics"][name] == results["metrics"][name]


def test_pipeline_row_reads_the_finders_idioms_and_ensembles_models(tiny_data, cache):
    result = _run(["eval", "emotion", "--data-dir", str(tiny_data), "--config", "pipeline",
                   "--model", "default,default", "--format", "json", "--no-progress"])
    assert result.exit_code == 0, result.output
    (run,) = json.loads(result.stdout[result.stdout.index("{"):])["runs"]
    config = run["configuration"]
    assert config["idioms"] == "finder" and config["model"] == ["default", "default"]
    assert len(config["ensemble_weights"]) == 2 and config["ensemble_weights"][0] == 1.0
    assert "IDEM sibling prior" in config["method"]
    # the finder finds the tiny set's idioms ("over the moon", "break the ice", ...)
    assert 0 < run["idioms_gold"] <= run["idioms_given"] <= 12


def test_eval_emotion_rejects_unknown_configuration(tiny_data):
    result = _run(["eval", "emotion", "--data-dir", str(tiny_data), "--config", "seq-aware2"])
    assert result.exit_code == 3 and "E457" in result.output


def test_models_selected_on_another_validation_split_are_refused(tiny_data):
    """A model selected on the seed-0 split may have trained on seed 1's validation
    sentences; weighting an ensemble there would leak, so it is a coded error."""
    from idiomkit.emotion.data import load_emotion_data
    from idiomkit.emotion.experiments import score_model
    from idiomkit.emotion.model import EmotionModel

    train, test = (load_emotion_data(split, tiny_data) for split in ("train", "test"))
    with pytest.raises(ConfigError) as info:
        score_model([EmotionModel.load()], train, test, [e.idiom for e in test.examples],
                    [None] * len(test.examples), seed=1)
    assert info.value.code == "E466" and "--seed 0" in str(info.value)


def test_model_and_pipeline_rows_share_an_idiom_ignorant_models_probabilities():
    """The default model reads the sentence alone: told other idioms it renders the same
    inputs, so the memo computes its probabilities once; new sentences are computed anew."""
    from idiomkit.emotion.experiments import ProbabilityMemo

    memo = ProbabilityMemo()
    model = memo.load("default")
    assert memo.load("default") is model
    texts = ["She was over the moon about it.", "He broke the ice with a joke."]
    gold = memo.predict_proba(model, texts, ["over the moon", "break the ice"], [None, None])
    found = memo.predict_proba(model, texts, [None, "ice"], [None, None])
    assert found is gold and gold.shape == (2, 36)
    other = memo.predict_proba(model, texts[:1], [None], [None])
    assert other is not gold and np.allclose(other[0], gold[0], atol=1e-5)


def test_train_emotion_reports_bad_labels_and_writes_a_card(tiny_data, cache, tmp_path):
    bad = tmp_path / "train.csv"
    rows = (tiny_data / "idem" / "idem_train.csv").read_text(encoding="utf-8").splitlines()
    rows.insert(3, "999,0,over the moon,She was over the moon about it.,Disappointment")
    bad.write_text("\n".join(rows) + "\n", encoding="utf-8")
    result = _run(["train", "emotion", "--data-dir", str(tiny_data), "--train-file", str(bad),
                   "--epochs", "1", "--lora-rank", "2", "--train-layers", "1",
                   "--seed", "2", "--validation-seed", "0",
                   "--output", str(tmp_path / "model"), "--no-progress"])
    assert result.exit_code == 0, result.output
    card = json.loads((tmp_path / "model" / "card.json").read_text(encoding="utf-8"))
    assert card["task"] == "emotion" and card["seed"] == 2
    # trained with seed 2, selected on seed 0's validation split: an ensemble member there
    assert card["data"]["train"]["validation_seed"] == 0
    assert "--validation-seed 0" in " ".join(card["command"])
    assert card["data"]["train"]["skipped_rows"] == [
        f"{bad}, line 4: emotion 'Disappointment' is not one of the 36 IDEM emotions; "
        "row skipped."]
    assert card["data"]["train"]["sentences"] == 48
    assert "train" in card["command"] and "emotion" in card["command"]
    assert set(card["metrics"]) == {"validation", "test", "test_with_sibling_prior"}
