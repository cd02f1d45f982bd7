"""``idiomkit bench find`` on a tiny IDEM-shaped data directory (a smoke test, not a timing)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from idiomkit.bench import FIND_TARGETS, run_find_benchmark
from idiomkit.bench.find import build_long_text
from idiomkit.cli.app import app
from idiomkit.errors import ConfigError, MissingDependencyError

HEADER = ["", "idiom_id", "idiom", "sentence", "emotion"]
# Hand-written sentences in IDEM's shape (not taken from the dataset).
ROWS = [
    ("spill the beans", "Tom finally spilled the beans about the surprise party.", "Surprise"),
    ("break the ice", "She told a silly joke to break the ice at the meeting.", "Amusement"),
    ("under the weather", "I stayed home because I was feeling under the weather.", "Sadness"),
    ("piece of cake", "The exam turned out to be a piece of cake.", "Relief"),
    ("hit the sack", "After the long hike we hit the sack early.", "Tiredness"),
    ("cost an arm and a leg", "That new phone cost him an arm and a leg.", "Annoyance"),
    ("let the cat out of the bag", "Grandma let the cat out of the bag at dinner.", "Amusement"),
    ("once in a blue moon", "We only see our cousins once in a blue moon.", "Longing"),
    ("on cloud nine", "After the wedding she was on cloud nine for weeks.", "Happiness"),
    ("burn the midnight oil", "He burned the midnight oil to finish the report.", "Determination"),
    ("kick the bucket", "The old lawnmower finally kicked the bucket.", "Sadness"),
    ("cold feet", "He got cold feet the night before the concert.", "Fear"),
    ("bite the bullet", "I bit the bullet and called the dentist.", "Determination"),
    ("the last straw", "Losing the keys again was the last straw.", "Anger"),
    ("in hot water", "The manager is in hot water over the missing files.", "Fear"),
    ("pour one's heart out", "He poured out his whole heart to a friend.", "Trust"),
    ("see eye to eye", "My brother and I rarely see eye to eye on politics.", "Annoyance"),
    ("a blessing in disguise", "Missing the bus was a blessing in disguise.", "Gratitude"),
    ("get out of hand", "The party got out of hand after midnight.", "Fear"),
    ("call it a day", "It was late, so the team decided to call it a day.", "Tiredness"),
]
SIZES = (1_500, 3_000)


def write_idem(root: Path) -> Path:
    folder = root / "idem"
    folder.mkdir(parents=True)
    for name, rows in (("idem_train.csv", ROWS[:16]), ("idem_test.csv", ROWS[16:])):
        with open(folder / name, "w", encoding="utf-8", newline="") as handle:
            writer = csv.writer(handle)
            writer.writerow(HEADER)
            for index, (idiom, sentence, emotion) in enumerate(rows):
                writer.writerow([index, index, idiom, sentence, emotion])
    return root


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    return write_idem(tmp_path / "data")


def check_method(entry: dict, *, subprocesses: bool, long_text: bool) -> None:
    assert entry["build_s"] > 0 and entry["first_call_s"] > 0
    throughput = entry["throughput"]
    assert len(throughput["runs_sentences_per_s"]) == 1 and len(throughput["runs_s"]) == 1
    assert throughput["median_sentences_per_s"] > 0 and throughput["median_s"] > 0
    assert throughput["idioms_per_pass"] >= 0
    if subprocesses:
        assert len(entry["cold_start"]["runs_s"]) == 1
        assert 0 < entry["cold_start"]["median_s"] <= entry["cold_start"]["median_exit_s"]
        assert entry["peak_rss_mb"] >= entry["rss_before_finder_mb"] > 0
    else:
        assert "cold_start" not in entry and "peak_rss_mb" not in entry
    if long_text:
        sizes = entry["long_text"]["sizes"]
        assert list(sizes) == ["0.0015MB", "0.003MB"]
        for target, size in zip(SIZES, sizes.values()):
            assert size["bytes"] >= target and size["sentences"] >= 1
            assert size["median_s"] > 0 and size["s_per_mb"] > 0
        assert entry["long_text"]["per_mb_ratio"] > 0
    else:
        assert "long_text" not in entry


def test_bench_find_cli_default_json_and_file(data_dir: Path, tmp_path: Path):
    out = tmp_path / "results"
    result = CliRunner().invoke(app, [
        "bench", "find", "--data-dir", str(data_dir), "--methods", "default", "--runs", "1",
        "--long-text-sizes", "1500,3kB", "--format", "json", "--output", str(out),
        "--no-progress",
    ])
    assert result.exit_code == 0, result.output
    results = json.loads(result.stdout)
    assert results["task"] == "bench-find" and results["dataset"] == "idem"
    assert results["split"] == "train+test" and results["n"] == len(ROWS)
    assert results["dataset_checksum"].startswith("sha256:")
    configuration = results["configuration"]
    assert configuration["methods"] == ["default"] and configuration["runs"] == 1
    assert configuration["long_text_sizes_bytes"] == list(SIZES)
    assert configuration["machine"]["cpu_count"] >= 1 and configuration["machine"]["python"]
    check_method(results["metrics"]["default"], subprocesses=True, long_text=True)
    assert "ratios" not in results["metrics"]
    assert set(results["targets"]) == set(FIND_TARGETS)
    assert all(isinstance(t["met"], bool) for t in results["targets"].values())
    written = list(out.glob("bench-find-idem-*.json"))
    assert len(written) == 1
    assert json.loads(written[0].read_text(encoding="utf-8"))["metrics"] == results["metrics"]


def test_bench_find_both_methods_in_process(data_dir: Path):
    try:
        from idiomkit.detect.wordnet_setup import ensure_wordnet

        ensure_wordnet()
    except MissingDependencyError as error:
        pytest.skip(f"idem-rules needs NLTK's WordNet, which is not available here: {error}")
    results = run_find_benchmark(
        data_dir, methods=("default", "idem-rules"), runs=1, progress=False,
        long_text_sizes=SIZES, cold_start=False, memory=False,
    )
    metrics = results["metrics"]
    check_method(metrics["default"], subprocesses=False, long_text=True)
    # the rule-based finder is not timed on long texts unless asked
    check_method(metrics["idem-rules"], subprocesses=False, long_text=False)
    ratio = metrics["ratios"]["throughput_default_over_idem-rules"]
    assert ratio == pytest.approx(
        metrics["default"]["throughput"]["median_sentences_per_s"]
        / metrics["idem-rules"]["throughput"]["median_sentences_per_s"], rel=1e-2)
    assert results["configuration"]["long_text_methods"] == ["default"]
    assert results["targets"]["default.cold_start.median_s"]["met"] is None  # not measured


def test_bench_find_table_output(data_dir: Path):
    result = CliRunner().invoke(app, [
        "bench", "find", "--data-dir", str(data_dir), "--methods", "default", "--runs", "1",
        "--no-long-text", "--no-cold-start", "--no-memory", "--no-progress",
    ])
    assert result.exit_code == 0, result.output
    assert "throughput" in result.stdout and "default" in result.stdout


def test_bench_find_rejects_bad_parameters(data_dir: Path):
    with pytest.raises(ConfigError, match="runs"):
        run_find_benchmark(data_dir, runs=0, progress=False)
    result = CliRunner().invoke(app, [
        "bench", "find", "--data-dir", str(data_dir), "--long-text-sizes", "big",
    ])
    assert result.exit_code == 2


def test_build_long_text_cycles_in_order():
    text, used = build_long_text(["ab", "cd"], 8)
    assert text == "ab cd ab" and used == 3
