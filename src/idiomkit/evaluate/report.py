"""Markdown reports rendered from results files (never from memory).

One table per (task, dataset, split): a row per run (its configuration, metrics, ``n`` and
commit) and, when a results file carries ``reference`` numbers, a row per paper number so the
run and the paper sit side by side.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..errors import DataError


def load_results(path: str | Path) -> dict[str, Any]:
    """Read one results file, or raise :class:`DataError` saying what is wrong with it."""
    path = Path(path)
    try:
        results = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise DataError("E307", f"Results file '{path}' does not exist.") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise DataError(
            "E308", f"Results file '{path}' is not valid JSON ({error}). Re-run the evaluation."
        ) from None
    required = ("task", "dataset", "split", "metrics")
    missing = [k for k in required if k not in results] if isinstance(results, dict) else []
    if not isinstance(results, dict) or missing:
        raise DataError(
            "E308",
            f"Results file '{path}' is not an idiomkit results object (missing: "
            f"{', '.join(missing) or 'an object'}). Pass files written by write_results.",
        )
    return results


def flatten_metrics(metrics: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """Nested metrics as one level with dotted names.

    >>> flatten_metrics({"all_candidates": {"precision": 0.5}, "n_predictions": 3})
    {'all_candidates.precision': 0.5, 'n_predictions': 3}
    """
    flat: dict[str, Any] = {}
    for key, value in metrics.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            flat.update(flatten_metrics(value, prefix=f"{name}."))
        else:
            flat[name] = value
    return flat


#: per-run breakdowns a results file keeps for its own command's tables, not report columns
#: (AStitch's rows per format and seed, IDEM's per-emotion table, an audit's folds)
DETAIL_KEYS = frozenset({"by_format", "per_emotion", "folds"})
#: blocks reported by one score each (the baselines' full binary scores stay in the file)
HEADLINE_ONLY = {"baselines": "macro_f1"}


def summary_metrics(metrics: dict[str, Any]) -> dict[str, Any]:
    """The report's columns: ``metrics`` flattened, without :data:`DETAIL_KEYS` and lists,
    and with only the headline score of :data:`HEADLINE_ONLY` blocks.

    >>> summary_metrics({"f1": 0.5, "by_format": {"span": {"dev": 0.4}}, "history": [1, 2],
    ...                  "baselines": {"majority": {"test": {"macro_f1": 0.2, "n": 9}}}})
    {'f1': 0.5, 'baselines.majority.test.macro_f1': 0.2}
    """
    kept = {k: v for k, v in metrics.items() if k not in DETAIL_KEYS and not isinstance(v, list)}
    return {k: v for k, v in flatten_metrics(kept).items() if not isinstance(v, list)
            and (k.split(".")[0] not in HEADLINE_ONLY
                 or k.endswith("." + HEADLINE_ONLY[k.split(".")[0]]))}


def _cell(value: Any, percent: bool = False) -> str:
    if value is None:
        return "–"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float):
        return f"{value * 100:.2f}" if percent else f"{value:.4f}"
    if isinstance(value, (list, dict)):
        value = json.dumps(value, ensure_ascii=False)
    # a pipe would end the cell; a newline would end the row
    return str(value).replace("|", "\\|").replace("\n", " ")


def _configuration(configuration: dict[str, Any]) -> str:
    # "method" first: it is what a reader scans the column for
    items = sorted(configuration.items(), key=lambda item: (item[0] != "method", item[0]))
    parts = []
    for key, value in items:
        shown = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
        parts.append(f"{key}={shown}")
    return ", ".join(parts) or "–"


def _commit(results: dict[str, Any]) -> str:
    git = results.get("git") or {}
    commit = git.get("commit")
    if not commit:
        return "–"
    return commit[:7] + ("+dirty" if git.get("dirty") else "")


def _reference_column(key: str, columns: list[str]) -> str:
    """The run column a reference number belongs to: the same name, else the one column whose
    last part is that name (``precision`` → ``all_candidates.precision``), else its own."""
    if key in columns:
        return key
    matches = [c for c in columns if c.rsplit(".", 1)[-1] == key]
    return matches[0] if len(matches) == 1 else key


def _group_table(runs: list[dict[str, Any]], percent: bool) -> list[str]:
    columns: list[str] = []
    for results in runs:
        for key in summary_metrics(results["metrics"]):
            if key not in columns:
                columns.append(key)
    run_columns = list(columns)
    references: dict[str, dict[str, Any]] = {}
    for results in runs:
        for name, numbers in (results.get("reference") or {}).items():
            if name in references:
                continue
            placed = {
                _reference_column(k, run_columns): v for k, v in flatten_metrics(numbers).items()
            }
            references[name] = placed
            columns.extend(c for c in placed if c not in columns)

    header = ["configuration", *columns, "n", "commit"]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for results in runs:
        metrics = summary_metrics(results["metrics"])
        row = [
            _cell(_configuration(results.get("configuration") or {})),
            *(_cell(metrics.get(c), percent) for c in columns),
            _cell(results.get("n")),
            _commit(results),
        ]
        lines.append("| " + " | ".join(row) + " |")
    for name, numbers in references.items():
        row = [
            _cell(f"reference: {name}"),
            *(_cell(numbers.get(c), percent) for c in columns),
            "–",
            "–",
        ]
        lines.append("| " + " | ".join(row) + " |")
    return lines


def render_report(paths: Iterable[str | Path], *, percent: bool = False) -> str:
    """A Markdown report of the results files at ``paths``.

    Runs are grouped by task, dataset and split (groups and runs in the order given); each
    group lists its dataset checksum(s). Scores print as fractions with 4 decimals, or as
    percentages with 2 decimals when ``percent`` (as the papers print them).
    """
    groups: dict[tuple[str, str, str], list[dict[str, Any]]] = {}
    for path in paths:
        results = load_results(path)
        key = (str(results["task"]), str(results["dataset"]), str(results["split"]))
        groups.setdefault(key, []).append(results)

    lines = ["# Results", ""]
    if not groups:
        lines += ["No results files given.", ""]
    for (task, dataset, split), runs in groups.items():
        lines += [f"## {task} · {dataset} · {split}", ""]
        checksums = list(dict.fromkeys(r.get("dataset_checksum") or "unknown" for r in runs))
        label = "Dataset checksum" if len(checksums) == 1 else "Dataset checksums (differ!)"
        lines += [f"{label}: " + ", ".join(f"`{c}`" for c in checksums), ""]
        lines += _group_table(runs, percent)
        lines.append("")
    if percent:
        lines += ["Scores are percentages.", ""]
    else:
        lines += ["Scores are fractions in [0, 1]; papers print percentages.", ""]
    return "\n".join(lines)
