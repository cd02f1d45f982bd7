"""Results files: one JSON object per run, with what is needed to reproduce and compare it.

A results object holds ``task``, ``dataset``, ``split``, ``configuration``, ``metrics``, ``n``,
``seed`` and provenance: ``git`` (``commit``, ``dirty``), ``versions`` (idiomkit, Python,
platform, key packages), ``dataset_checksum``, ``dataset_files`` and ``timestamp`` (UTC, ISO
8601). Reports are rendered from these files (:mod:`idiomkit.evaluate.report`), never from memory.
"""

from __future__ import annotations

import json
import platform
import re
import subprocess
import sys
from datetime import datetime, timezone
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from ..errors import ConfigError

#: version of the results JSON layout; bump it when a key changes meaning
RESULTS_SCHEMA_VERSION = 1
#: packages whose versions can change a result; those not installed are left out
KEY_PACKAGES = (
    "lemminflect",
    "nltk",
    "numpy",
    "scikit-learn",
    "spacy",
    "torch",
    "transformers",
    "sentence-transformers",
    "tqdm",
)
_RESERVED = frozenset(
    {
        "schema",
        "task",
        "dataset",
        "split",
        "configuration",
        "metrics",
        "n",
        "seed",
        "git",
        "versions",
        "dataset_checksum",
        "dataset_files",
        "timestamp",
    }
)
_PACKAGE_DIR = Path(__file__).resolve().parents[1]


def _git(*args: str, cwd: Path) -> str | None:
    try:
        done = subprocess.run(
            ["git", *args], cwd=cwd, capture_output=True, text=True, timeout=10, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout if done.returncode == 0 else None


def git_info(package_dir: Path = _PACKAGE_DIR) -> dict[str, Any]:
    """``{"commit", "dirty"}`` of the checkout idiomkit runs from; both ``None`` when idiomkit
    is not run from a git checkout of itself (e.g. installed from a wheel).

    ``dirty`` is true when a tracked file differs from the commit or an untracked file sits
    under ``src/`` (new code); other untracked files (results, notes) do not count.
    """
    unknown: dict[str, Any] = {"commit": None, "dirty": None}
    toplevel = _git("rev-parse", "--show-toplevel", cwd=package_dir)
    if toplevel is None:
        return unknown
    root = Path(toplevel.strip())
    # An installed copy inside some other repository (a venv in a project) is not our checkout.
    if (root / "src" / package_dir.name).resolve() != package_dir.resolve():
        return unknown
    commit = _git("rev-parse", "HEAD", cwd=root)
    if commit is None:  # a repository without commits yet
        return unknown
    status = _git("status", "--porcelain", cwd=root) or ""
    dirty = any(
        not line.startswith("??") or line[3:].startswith("src/")
        for line in status.splitlines()
        if line.strip()
    )
    return {"commit": commit.strip(), "dirty": dirty}


def package_versions(packages: tuple[str, ...] = KEY_PACKAGES) -> dict[str, str]:
    """Versions of idiomkit, Python, the platform and the installed ``packages``."""
    versions = {
        "idiomkit": _version("idiomkit") or "0.0.0+unknown",
        "python": platform.python_version(),
        "platform": platform.platform(),
    }
    for package in packages:
        found = _version(package)
        if found is not None:
            versions[package] = found
    return versions


def _version(package: str) -> str | None:
    try:
        return version(package)
    except PackageNotFoundError:
        return None


def make_results(
    task: str,
    dataset: Any,
    split: str,
    configuration: dict[str, Any],
    metrics: dict[str, Any],
    n: int,
    seed: int | None = None,
    extra: dict[str, Any] | None = None,
    *,
    dataset_checksum: str | None = None,
    timestamp: datetime | None = None,
) -> dict[str, Any]:
    """A results object with provenance for one run.

    ``dataset`` is a :class:`~idiomkit.datasets.Dataset` (its name, checksum and files are
    recorded) or a dataset name (then pass ``dataset_checksum``). ``extra`` adds top-level keys
    such as ``reference`` (paper numbers the report shows beside the run); it may not replace
    a provenance key.
    """
    name = getattr(dataset, "name", dataset)
    files = [Path(p).name for p in getattr(dataset, "files", [])]
    if dataset_checksum is None:
        dataset_checksum = getattr(dataset, "checksum", None)
    moment = (timestamp or datetime.now(timezone.utc)).astimezone(timezone.utc)
    results: dict[str, Any] = {
        "schema": RESULTS_SCHEMA_VERSION,
        "task": task,
        "dataset": str(name),
        "split": split,
        "configuration": dict(configuration),
        "metrics": dict(metrics),
        "n": n,
        "seed": seed,
        "git": git_info(),
        "versions": package_versions(),
        "dataset_checksum": dataset_checksum,
        "dataset_files": files,
        "timestamp": moment.isoformat(timespec="seconds"),
        "command": list(sys.argv),
    }
    for key, value in (extra or {}).items():
        if key in _RESERVED:
            raise ConfigError(
                "E405",
                f"The 'extra' parameter of make_results may not set '{key}' (a provenance key). "
                "Pass it through the matching parameter or use another key.",
            )
        results[key] = value
    return results


def _slug(part: str) -> str:
    # keep file names portable: no path separators or spaces
    return re.sub(r"[^A-Za-z0-9._+-]+", "_", str(part)) or "_"


def _json_default(value: Any) -> Any:
    # numpy scalars and arrays, paths, sets: written as their plain JSON counterparts
    if hasattr(value, "item") and callable(value.item) and getattr(value, "ndim", 0) == 0:
        return value.item()
    if hasattr(value, "tolist"):
        return value.tolist()
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def write_results(results: dict[str, Any], directory: str | Path) -> Path:
    """Write ``results`` to ``directory/<task>-<dataset>-<split>-<timestamp>.json``.

    The directory is created if needed; an existing file is never overwritten (a counter is
    appended instead). Returns the path written.
    """
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    stamp = results.get("timestamp") or datetime.now(timezone.utc).isoformat(timespec="seconds")
    try:
        stamp = datetime.fromisoformat(stamp).strftime("%Y%m%dT%H%M%SZ")
    except ValueError:
        stamp = _slug(stamp)
    stem = "-".join(_slug(results.get(k, "unknown")) for k in ("task", "dataset", "split"))
    text = json.dumps(results, indent=2, ensure_ascii=False, default=_json_default) + "\n"
    path = directory / f"{stem}-{stamp}.json"
    counter = 1
    while True:
        try:
            # mode "x": fail rather than overwrite when two runs finish in the same second
            with open(path, "x", encoding="utf-8") as handle:
                handle.write(text)
            return path
        except FileExistsError:
            path = directory / f"{stem}-{stamp}-{counter}.json"
            counter += 1
