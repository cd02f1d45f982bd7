from __future__ import annotations

import json
import re
import shutil
import subprocess
from datetime import datetime, timezone
from pathlib import Path

import pytest

from idiomkit.datasets import Dataset, Example
from idiomkit.errors import ConfigError, DataError
from idiomkit.evaluate import git_info, make_results, render_report, write_results

WHEN = datetime(2024, 5, 1, 12, 30, 5, tzinfo=timezone.utc)
REFERENCE = {
    "IDEM rule-based (paper Table 4)": {"precision": 0.7695, "recall": 0.9413, "f1": 0.8468}
}


def tiny_dataset() -> Dataset:
    return Dataset(
        name="idem",
        split="test",
        examples=[Example(id="test-0", text="x", idiom="y")],
        files=[Path("/data/idem/idem_test.csv")],
        checksum="sha256:abc",
    )


def results_for(method: str, precision: float, **kwargs) -> dict:
    metrics = {"all_candidates": {"precision": precision, "recall": 0.9, "f1": 0.8}}
    return make_results(
        "identification",
        tiny_dataset(),
        "test",
        {"method": method},
        metrics,
        n=956,
        timestamp=WHEN,
        **kwargs,
    )


def test_make_results_records_provenance():
    results = results_for("idem-rules", 0.7, seed=13, extra={"reference": REFERENCE})
    assert results["task"] == "identification"
    assert (results["dataset"], results["split"], results["n"], results["seed"]) == (
        "idem",
        "test",
        956,
        13,
    )
    assert results["configuration"] == {"method": "idem-rules"}
    assert results["dataset_checksum"] == "sha256:abc"
    assert results["dataset_files"] == ["idem_test.csv"]
    assert results["timestamp"] == "2024-05-01T12:30:05+00:00"
    assert {"idiomkit", "python", "platform"} <= set(results["versions"])
    assert set(results["git"]) == {"commit", "dirty"}
    commit = results["git"]["commit"]
    assert commit is None or re.fullmatch(r"[0-9a-f]{40}", commit)
    assert results["reference"] == REFERENCE
    json.dumps(results)  # plain JSON types only


def test_make_results_accepts_a_dataset_name_and_checksum():
    results = make_results("t", "epie", "formal", {}, {"f1": 1.0}, 3, dataset_checksum="sha256:x")
    assert (results["dataset"], results["dataset_checksum"], results["dataset_files"]) == (
        "epie",
        "sha256:x",
        [],
    )


def test_make_results_refuses_extra_that_replaces_provenance():
    with pytest.raises(ConfigError, match="E405"):
        results_for("x", 0.5, extra={"git": {"commit": "forged"}})


def test_write_results_names_file_and_never_overwrites(tmp_path):
    results = results_for("idem-rules", 0.7)
    first = write_results(results, tmp_path / "out")
    second = write_results(results, tmp_path / "out")
    assert first.name == "identification-idem-test-20240501T123005Z.json"
    assert second != first and second.exists()
    assert json.loads(first.read_text(encoding="utf-8")) == results


def test_write_results_makes_names_portable(tmp_path):
    results = make_results("span tagging", "a/b", "train+test", {}, {}, 0, timestamp=WHEN)
    path = write_results(results, tmp_path)
    assert path.parent == tmp_path
    assert path.name == "span_tagging-a_b-train+test-20240501T123005Z.json"


def test_write_results_serialises_numpy_scalars(tmp_path):
    np = pytest.importorskip("numpy")
    results = make_results("t", "d", "s", {}, {"f1": np.float64(0.25), "n": np.int64(4)}, 4)
    path = write_results(results, tmp_path)
    assert json.loads(path.read_text())["metrics"] == {"f1": 0.25, "n": 4}


def test_report_groups_runs_and_adds_paper_reference_rows(tmp_path):
    paths = [
        write_results(results_for("idem-rules", 0.7, extra={"reference": REFERENCE}), tmp_path),
        write_results(results_for("default", 0.75, extra={"reference": REFERENCE}), tmp_path),
        write_results(
            make_results(
                "identification",
                "idem",
                "train",
                {"method": "default"},
                {"all_candidates": {"precision": 0.5}},
                8729,
                timestamp=WHEN,
            ),
            tmp_path,
        ),
    ]
    report = render_report(paths)
    assert "## identification · idem · test" in report
    assert "## identification · idem · train" in report
    test_section = report.split("## identification · idem · train")[0]
    header = next(line for line in test_section.splitlines() if line.startswith("| configuration"))
    assert header.split(" | ")[1:4] == [
        "all_candidates.precision",
        "all_candidates.recall",
        "all_candidates.f1",
    ]
    assert "| method=idem-rules | 0.7000 | 0.9000 | 0.8000 | 956 |" in report
    assert "| method=default | 0.7500 |" in report
    # the paper's flat precision/recall/f1 land in the run's all_candidates columns, once
    assert (
        test_section.count(
            "| reference: IDEM rule-based (paper Table 4) | 0.7695 | 0.9413 | 0.8468 |"
        )
        == 1
    )
    assert "reference:" not in report.split("## identification · idem · train")[1]
    assert "`sha256:abc`" in report


def test_report_percentages_and_commit_column(tmp_path):
    results = results_for("idem-rules", 0.7, extra={"reference": REFERENCE})
    results["git"] = {"commit": "0123456789abcdef0123456789abcdef01234567", "dirty": True}
    report = render_report([write_results(results, tmp_path)], percent=True)
    assert "| 70.00 | 90.00 | 80.00 | 956 | 0123456+dirty |" in report
    assert "| 76.95 | 94.13 | 84.68 |" in report


def test_report_escapes_pipes_in_configuration(tmp_path):
    results = results_for("a|b", 0.5)
    report = render_report([write_results(results, tmp_path)])
    assert "method=a\\|b" in report


def test_report_leaves_per_format_rows_and_histories_to_their_command(tmp_path):
    results = results_for("classifier", 0.5)
    results["metrics"]["by_format"] = {"span/seed0": {"dev": {"macro_f1": 0.61}}}
    results["metrics"]["history"] = [0.1, 0.2]
    report = render_report([write_results(results, tmp_path)])
    header = next(line for line in report.splitlines() if line.startswith("| configuration"))
    assert "by_format" not in header and "history" not in header
    assert "all_candidates.f1" in header and "0.6100" not in report


def test_report_of_no_files():
    assert "No results files" in render_report([])


def test_report_rejects_files_that_are_not_results(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(DataError, match="E308"):
        render_report([bad])
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"task": "x"}), encoding="utf-8")
    with pytest.raises(DataError, match="missing: dataset, split, metrics"):
        render_report([other])
    with pytest.raises(DataError, match="E307"):
        render_report([tmp_path / "absent.json"])


def test_git_info_outside_a_checkout_is_unknown(tmp_path):
    assert git_info(tmp_path) == {"commit": None, "dirty": None}


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_git_info_reads_commit_and_dirty_flag(tmp_path):
    package = tmp_path / "src" / "idiomkit"
    package.mkdir(parents=True)
    (package / "core.py").write_text("x = 1\n")

    def git(*args: str) -> str:
        return subprocess.run(
            ["git", "-c", "user.name=t", "-c", "user.email=t@example.org", *args],
            cwd=tmp_path,
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()

    git("init", "-q")
    git("add", ".")
    git("commit", "-q", "-m", "init")
    head = git("rev-parse", "HEAD")
    assert git_info(package) == {"commit": head, "dirty": False}
    (tmp_path / "results.json").write_text("{}")  # untracked output: not dirty
    assert git_info(package)["dirty"] is False
    (package / "new.py").write_text("y = 2\n")  # untracked code: dirty
    assert git_info(package)["dirty"] is True
    (package / "new.py").unlink()
    (package / "core.py").write_text("x = 2\n")  # modified tracked file: dirty
    assert git_info(package)["dirty"] is True


def test_git_info_ignores_an_unrelated_enclosing_repository(tmp_path):
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    installed = tmp_path / "venv" / "site-packages" / "idiomkit"
    installed.mkdir(parents=True)
    assert git_info(installed) == {"commit": None, "dirty": None}
