"""Markdown report and verdicts for leakage-check results, rendered from results objects (as
written by :func:`~idiomkit.evaluate.write_results`), never from memory.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

#: a lookup that beats the majority class by this much macro-F1 makes the expression a shortcut
SHORTCUT_GAIN = 0.10
#: from this share of test sentences with a (near-)twin in train, duplicates are worth fixing
DUPLICATE_SHARE = 0.02


def _pct(value: float) -> str:
    return f"{100 * value:.1f}"


def rows(results: dict[str, Any]) -> Iterable[dict[str, Any]]:
    """One flat row per (setting, evaluation split) of a results object."""
    for setting, body in results["metrics"]["settings"].items():
        for split, checks in body["evaluate"].items():
            overlap, skew, dup = (
                checks["expression_overlap"], checks["label_skew"], checks["duplicates"]
            )
            yield {
                "dataset": results["dataset"],
                "setting": setting,
                "train": "+".join(body["train"]),
                "split": split,
                "n": skew["n"],
                "example_overlap": overlap["example_overlap"],
                "type_overlap": overlap["type_overlap"],
                "lookup_accuracy": skew["accuracy"],
                "lookup_macro_f1": skew["macro_f1"],
                "majority_accuracy": skew["global_majority_accuracy"],
                "majority_macro_f1": skew["global_majority_macro_f1"],
                "train_purity": skew["train_purity"],
                "exact": dup["exact"],
                "near": dup["near"],
                "duplicate_share": dup["any_share"],
            }


def verdict(results: dict[str, Any]) -> str:
    """One line on the most exposed (setting, split) of a dataset.

    It names the pair where the expression lookup gains most macro-F1 over the majority class,
    and adds duplicates where at least :data:`DUPLICATE_SHARE` of test sentences have a twin.
    """
    table = list(rows(results))
    if not table:
        return f"{results['dataset']}: no evaluation split was checked."
    worst = max(table, key=lambda r: r["lookup_macro_f1"] - r["majority_macro_f1"])
    where = f"{worst['setting']} -> {worst['split']}"
    gain = worst["lookup_macro_f1"] - worst["majority_macro_f1"]
    if worst["example_overlap"] == 0:
        line = (
            f"expression-disjoint ({where}): an expression lookup can only guess the majority "
            "class, so a model must use the context"
        )
    elif worst["lookup_accuracy"] < worst["majority_accuracy"] - SHORTCUT_GAIN / 2:
        line = (
            f"expressions overlap ({_pct(worst['example_overlap'])}% of test examples, {where}) "
            f"but their train labels mislead: the lookup's accuracy is "
            f"{_pct(worst['lookup_accuracy'])} vs {_pct(worst['majority_accuracy'])} for the "
            "majority class (test pairs of expression and label rarely occur in train)"
        )
    elif gain >= SHORTCUT_GAIN:
        line = (
            f"labels are largely predictable from the expression ({where}): a majority-label-"
            f"by-expression lookup reaches macro-F1 {_pct(worst['lookup_macro_f1'])} vs "
            f"{_pct(worst['majority_macro_f1'])} for the majority class, with "
            f"{_pct(worst['example_overlap'])}% of test examples' expressions seen in train"
        )
    else:
        line = (
            f"expressions overlap ({_pct(worst['example_overlap'])}% of test examples, {where}) "
            f"but predict little: lookup macro-F1 {_pct(worst['lookup_macro_f1'])} vs "
            f"{_pct(worst['majority_macro_f1'])} for the majority class"
        )
    duplicated = max(table, key=lambda r: r["duplicate_share"])
    if duplicated["duplicate_share"] >= DUPLICATE_SHARE:
        line += (
            f"; {_pct(duplicated['duplicate_share'])}% of {duplicated['split']} sentences "
            f"({duplicated['setting']}) duplicate a train sentence"
        )
    return f"{results['dataset']}: {line}."


def render_markdown(all_results: Sequence[dict[str, Any]]) -> str:
    """A Markdown report of one or more results objects of ``idiomkit audit --checks-only``."""
    out = ["# Dataset leakage checks", ""]
    out += ["Verdicts:", ""] + [f"- {verdict(r)}" for r in all_results] + [""]
    out += [
        "| dataset | setting | train | eval | n | expr. overlap % (examples / types) | "
        "lookup acc % | lookup macro-F1 % | majority acc % | majority macro-F1 % | "
        "exact dup | near dup |",
        "|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for results in all_results:
        for r in rows(results):
            out.append(
                f"| {r['dataset']} | {r['setting']} | {r['train']} | {r['split']} | {r['n']} | "
                f"{_pct(r['example_overlap'])} / {_pct(r['type_overlap'])} | "
                f"{_pct(r['lookup_accuracy'])} | {_pct(r['lookup_macro_f1'])} | "
                f"{_pct(r['majority_accuracy'])} | {_pct(r['majority_macro_f1'])} | "
                f"{r['exact']} | {r['near']} |"
            )
    out.append("")
    for results in all_results:
        out += _dataset_section(results)
    return "\n".join(out) + "\n"


def _dataset_section(results: dict[str, Any]) -> list[str]:
    metrics = results["metrics"]
    git = results.get("git") or {}
    out = [
        f"## {results['dataset']}",
        "",
        f"Files: {', '.join(_files(results)) or 'n/a'}; checksum "
        f"`{results.get('dataset_checksum')}`; idiomkit {results['versions'].get('idiomkit')}, "
        f"commit `{git.get('commit')}`{' (dirty)' if git.get('dirty') else ''}; "
        f"{results.get('timestamp')}.",
        "",
        "| split | n | labels | majority share % | sentences repeated within split |",
        "|---|---:|---|---:|---:|",
    ]
    for split, balance in metrics["balance"].items():
        counts = ", ".join(f"{label} {count}" for label, count in balance["counts"].items())
        within = metrics["within_split_duplicates"][split]
        out.append(
            f"| {split} | {balance['n']} | {counts} | {_pct(balance['majority_share'])} | "
            f"{within['duplicated']} |"
        )
    out.append("")
    pairs = [
        (setting, split, pair)
        for setting, body in metrics["settings"].items()
        for split, checks in body["evaluate"].items()
        for pair in checks["duplicates"]["examples"][:3]
    ]
    if pairs:
        out += ["Duplicate sentences across splits (first few):", ""]
        for setting, split, pair in pairs[:6]:
            out.append(
                f"- {setting} -> {split}, {pair['kind']} ({pair['similarity']}): "
                f"test `{pair['test_id']}` \"{_short(pair['test_text'])}\" / train "
                f"`{pair['train_id']}` \"{_short(pair['train_text'])}\""
            )
        out.append("")
    return out


def _files(results: dict[str, Any]) -> list[str]:
    # the configuration keeps paths relative to the data folder; results files keep base names
    return results["configuration"].get("files") or results.get("dataset_files") or []


def _short(text: str, limit: int = 90) -> str:
    text = " ".join(text.split()).replace("|", "/")
    return text if len(text) <= limit else text[: limit - 1] + "…"
