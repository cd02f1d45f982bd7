"""Markdown report, verdict and bar chart of a training audit, rendered from its results object
(as written by :func:`~idiomkit.evaluate.write_results`), never from memory.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .training import SETTINGS, relative_drop

#: a baseline reaching this share of Default's macro-F1 means the labels are largely predictable
#: without the hidden information
SHORTCUT_SHARE = 0.95
LABELS = {"default": "Default", "only_expression": "Only-expression",
          "masked": "Masked-expression"}
#: Boisson et al. (2023) macro-F1 for the MAD rows (BERT-base, BOHB 50 trials): Table 2
#: (original splits, test) and Table 3 (5-fold random / lexical), as (Default, PME, Masked)
PAPER = {
    "astitch": {
        "few_shot -> test": (94.72, 89.14, 71.72),
        "one_shot -> test": (88.21, 86.24, 65.65),
        "zero_shot -> test": (81.54, 77.56, 64.44),
        "random 5-fold": (94.58, 86.99, 75.89),
        "lexical 5-fold": (77.38, 70.14, 68.76),
    },
}


def trained(results: dict[str, Any]) -> tuple[str, ...]:
    """The input settings the audit trained (all three unless ``--inputs`` chose a subset)."""
    return tuple(results["configuration"].get("inputs") or SETTINGS)


def rows(results: dict[str, Any]) -> list[dict[str, Any]]:
    """One row per comparison: original (setting -> test split) and each CV mode (means); an
    input setting that was not trained is None."""
    metrics = results["metrics"]
    inputs = trained(results)
    missing = dict.fromkeys(s for s in SETTINGS if s not in inputs)
    out = []
    for setting, run in metrics["original"].items():
        for split in run["n_test"]:
            out.append({
                "scope": f"{setting} -> {split}", "n_test": run["n_test"][split],
                "n_train": run["n_train"],
                **missing, **{s: run["settings"][s]["macro_f1"][split] for s in inputs},
                "std": None,
            })
    for mode, body in metrics["cv"].items():
        out.append({
            "scope": f"{mode} 5-fold", "n_test": body["n"], "n_train": None,
            **missing, **{s: body["macro_f1"][s]["mean"] for s in inputs},
            "std": {s: body["macro_f1"][s]["std"] for s in inputs},
        })
    return out


def verdict(results: dict[str, Any]) -> str:
    """One line: how close each baseline comes to Default on the main comparison (the original
    split of the largest training setting)."""
    table = [r for r in rows(results) if "fold" not in r["scope"]]
    main = max(table, key=lambda r: r["n_train"])
    default = main["default"]
    if default is None or (main["only_expression"] is None and main["masked"] is None):
        return (f"{results['dataset']} ({main['scope']}): no verdict, it needs Default and a "
                f"baseline; trained: {', '.join(trained(results))}.")
    share = {s: (main[s] / default if default else 0.0) for s in ("only_expression", "masked")
             if main[s] is not None}
    parts = []
    if share.get("only_expression", 0.0) >= SHORTCUT_SHARE:
        parts.append(f"only-expression reaches {100 * share['only_expression']:.0f}% of default: "
                     "labels are largely predictable from the expression")
    if share.get("masked", 0.0) >= SHORTCUT_SHARE:
        parts.append(f"masked-expression reaches {100 * share['masked']:.0f}% of default: the "
                     "context alone largely predicts the label")
    if not parts:
        shares = ", ".join(f"{LABELS[s].lower()} {100 * v:.0f}%" for s, v in share.items())
        parts.append(f"default beats the {'baselines' if len(share) > 1 else 'baseline'} "
                     f"({shares} of default): a model needs the expression in its context")
    lexical = results["metrics"]["cv"].get("lexical")
    if lexical and "default" in lexical["macro_f1"]:
        parts.append(f"lexical-split default {100 * lexical['macro_f1']['default']['mean']:.1f}")
    return f"{results['dataset']} ({main['scope']}): " + "; ".join(parts) + "."


def _cell(row: dict[str, Any], setting: str) -> str:
    if row[setting] is None:
        return "–"
    value = 100 * row[setting]
    text = f"{value:.2f}"
    if row["std"]:
        text += f" ± {100 * row['std'][setting]:.2f}"
    if setting != "default" and row["default"] is not None:
        drop = relative_drop(row[setting], row["default"])
        if drop is not None:
            text += f" ({100 * drop:+.1f}%)"
    return text


def bar_chart(results: dict[str, Any], path: str | Path) -> Path:
    """A PNG of the three settings' macro-F1 per comparison."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    table = rows(results)
    x = np.arange(len(table))
    width = 0.27
    fig, ax = plt.subplots(figsize=(max(6, 1.6 * len(table)), 3.8))
    for k, setting in enumerate(SETTINGS):
        if setting not in trained(results):
            continue
        values = [100 * r[setting] for r in table]
        errors = [100 * r["std"][setting] if r["std"] else 0 for r in table]
        ax.bar(x + (k - 1) * width, values, width, yerr=errors, label=LABELS[setting])
    ax.set_xticks(x, [r["scope"] for r in table], rotation=20, ha="right")
    ax.set_ylabel("macro-F1")
    ax.set_ylim(0, 115)
    ax.set_title(f"{results['dataset']}: Default vs Only-expression vs Masked")
    ax.legend(loc="upper center", ncol=3, fontsize=8)
    fig.tight_layout()
    path = Path(path)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def render_markdown(results: dict[str, Any], chart: str | None = None,
                    checks_markdown: str | None = None) -> str:
    """The Markdown report of one training-audit results object."""
    config = results["configuration"]
    metrics = results["metrics"]
    git = results.get("git") or {}
    out = [f"# Dataset artifact audit: {results['dataset']}", "", f"Verdict: {verdict(results)}",
           "",
           f"Classifier: {config['classifier']} over `{config.get('model', 'minilm')}`; "
           f"{config['search']}, {config.get('trials')} trials per setting and split; "
           f"seed {results.get('seed')}. Inputs marked by {config['marking']}. Commit "
           f"`{git.get('commit')}`{' (dirty)' if git.get('dirty') else ''}; "
           f"{results.get('timestamp')}.", "",
           "| comparison | n test | Default | Only-expression | Masked-expression |",
           "|---|---:|---:|---:|---:|"]
    for row in rows(results):
        out.append(f"| {row['scope']} | {row['n_test']} | "
                   + " | ".join(_cell(row, s) for s in SETTINGS) + " |")
    out.append("")
    paper = PAPER.get(results["dataset"])
    if paper:
        out += ["Paper (Boisson et al., 2023, BERT-base, BOHB 50 trials) vs ours (macro-F1):",
                "", "| comparison | paper D / PME / M | ours D / PME / M | difference |",
                "|---|---|---|---|"]
        ours = {r["scope"]: r for r in rows(results)}
        for scope, ref in paper.items():
            if scope in ours:
                mine = [ours[scope][s] for s in SETTINGS]
                out.append(f"| {scope} | {' / '.join(f'{v:.2f}' for v in ref)} | "
                           + " / ".join("–" if m is None else f"{100 * m:.2f}" for m in mine)
                           + " | " + " / ".join("–" if m is None else f"{100 * m - p:+.2f}"
                                                for m, p in zip(mine, ref)) + " |")
        out.append("")
    if chart:
        out += [f"![macro-F1 per setting]({chart})", ""]
    lexical = metrics["cv"].get("lexical")
    if lexical:
        seen = [f["test_seen_expressions"] for f in lexical["folds"]]
        out += [f"Lexical folds: test examples whose expression occurs in train/dev per fold: "
                f"{seen} (expression-disjoint when all are 0).", ""]
    excluded = {k: v["n"] for k, v in metrics["excluded"].items() if v["n"]}
    if excluded:
        out += [f"Left out of all three settings (expression not located in the sentence, so it "
                f"cannot be masked): {excluded}.", ""]
    out += ["Time (s): " + ", ".join(f"{k} {v}" for k, v in metrics["seconds"].items()), ""]
    if checks_markdown:
        out += ["", checks_markdown.replace("# Dataset leakage checks", "## Leakage checks")]
    return "\n".join(out) + "\n"
