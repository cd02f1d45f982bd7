"""``idiomkit lexicon``: build the bundled lexicon, review entries for it, or describe one."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Annotated, Any

import typer

from . import EXIT_RECORD_ERRORS, exit_on_error

lexicon_app = typer.Typer(
    help="Build the bundled idiom lexicon (SLIDE + Wiktionary), review entries proposed for "
    "it, calibrate the finder's candidate scorer, or describe a lexicon.",
    no_args_is_help=True,
)


@lexicon_app.command("build")
def build_command(
    data_dir: Annotated[Path | None, typer.Option(
        "--data-dir", help="Folder with the slide/ and idem/ datasets (default: "
        "$IDIOMKIT_DATA, then ../shared/data).", show_default=False,
    )] = None,
    output: Annotated[Path | None, typer.Option(
        "--output", "-o", help="Where to write the JSONL (default: the bundled lexicon "
        "inside the package).", show_default=False,
    )] = None,
) -> None:
    """Join SLIDE's idioms with IDEM's Wiktionary definitions into the lexicon JSONL.

    Building the bundled lexicon also rewrites the matcher's compile tables (every idiom
    word's forms, precomputed so `idiomkit find` starts fast)."""
    with exit_on_error():
        from ..lexicon.build import build_lexicon
        from ..lexicon.io import bundled_lexicon_path, load_lexicon

        summary = build_lexicon(output or bundled_lexicon_path(), data_dir=data_dir)
        tables = None
        if output is None:  # the bundled lexicon: its compile tables too
            from ..detect.lexicon_matcher import compute_tables
            from ..detect.matcher_tables import bundled_tables_path, save_tables

            tables = save_tables(compute_tables(load_lexicon(summary["output"])),
                                 bundled_tables_path())
    typer.echo(
        f"Wrote {summary['entries']} entries ({summary['with_definition']} with a definition, "
        f"{summary['filter_out']} marked filter-out) to {summary['output']}"
    )
    typer.echo(f"sources {summary['sources_checksum']}")
    typer.echo(f"output  {summary['output_checksum']}")
    if tables is not None:
        typer.echo(f"Wrote the matcher's compile tables to {tables}")


@lexicon_app.command("review")
def review_command(
    proposed: Annotated[Path, typer.Argument(
        help="The proposed entries: CSV or JSONL with 'idiom' and optional 'definition' "
        "(the supplement's format).", show_default=False,
    )],
    lexicon: Annotated[Path | None, typer.Option(
        "--lexicon", "-l", help="The lexicon they would join (default: the bundled one).",
        show_default=False,
    )] = None,
    data_dir: Annotated[Path | None, typer.Option(
        "--data-dir", help="Folder with the general text's datasets and idem/ (default: "
        "$IDIOMKIT_DATA, then ../shared/data).", show_default=False,
    )] = None,
    examples: Annotated[int, typer.Option(
        min=0, help="Matched general-text sentences shown per entry.")] = 3,
    as_json: Annotated[bool, typer.Option(
        "--json", help="Print every report as JSON (a list, in file order).")] = False,
    strict: Annotated[bool, typer.Option(
        "--strict", help="Exit 1 when any entry is flagged (for a check before merging).",
    )] = False,
) -> None:
    """Check entries before they join the lexicon: another spelling of an entry it has
    (duplicate), a whole entry inside them or they inside one (contains, inside), how often
    they match in general text (frequent: 5 or more per 10,000 sentences, with examples to
    read), and in how many IDEM train sentences they are a candidate beside another gold
    idiom (idem). The flags point at entries to read; they decide nothing. A few seconds."""
    with exit_on_error():
        from ..datasets import load_dataset
        from ..detect.general_text import general_sentences
        from ..lexicon import load_lexicon
        from ..lexicon.review import review_entries

        general, _ = general_sentences(data_dir)
        idem = [(e.text, e.idiom) for e in load_dataset("idem", "train", data_dir=data_dir)]
        reports = review_entries(load_lexicon(proposed), load_lexicon(lexicon), general, idem,
                                 examples=examples)
    flagged = [r for r in reports if r["flags"]]
    if as_json:
        typer.echo(json.dumps(reports, indent=2, ensure_ascii=False))
    else:
        _print_reviews(flagged, len(reports), len(general))
    if strict and flagged:
        raise typer.Exit(EXIT_RECORD_ERRORS)


def _print_reviews(flagged: list[dict[str, Any]], n_entries: int, n_general: int) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"{len(flagged)} of {n_entries} entries flagged "
                  f"({n_general} general-text sentences)", title_justify="left")
    for column in ("idiom", "flags", "per 10k", "idem", "why / where"):
        table.add_column(column)
    for report in flagged:
        notes = [f"{name} {', '.join(report[key])}"
                 for name, key in (("same as", "duplicate_of"), ("holds", "contains"),
                                   ("inside", "inside")) if report[key]]
        notes += [f"\"{e['matched']}\" in: {e['text'][:90]}"
                  for e in report["general"]["examples"]]
        table.add_row(report["idiom"], " ".join(report["flags"]),
                      f"{report['general']['per_10k']:g}", str(report["idem_other_gold"]),
                      "\n".join(notes))
    Console().print(table)


@lexicon_app.command("info")
def info_command(
    lexicon: Annotated[Path | None, typer.Option(
        "--lexicon", "-l", help="A user lexicon (CSV or JSONL) instead of the bundled one.",
        show_default=False,
    )] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
) -> None:
    """Entries, how many have definitions, and where they come from (sources and licences)."""
    with exit_on_error():
        from ..lexicon import load_lexicon

        info = summarize_lexicon(load_lexicon(lexicon))
    if as_json:
        typer.echo(json.dumps(info, indent=2, ensure_ascii=False))
        return
    typer.echo(f"lexicon          {info['name']}")
    typer.echo(f"entries          {info['entries']}")
    typer.echo(f"with definition  {info['with_definition']}")
    typer.echo(f"filter-out       {info['filter_out']}")
    for title, key in (("sources", "sources"), ("licences", "licenses"),
                       ("sentiment", "sentiment")):
        typer.echo(f"{title}:")
        for name, count in info[key].items():
            typer.echo(f"  {count:>6}  {name}")


@lexicon_app.command("calibrate")
def calibrate_command(
    data_dir: Annotated[Path | None, typer.Option(
        "--data-dir", help="Folder with the idem/ dataset and the general text's pie_english/, "
        "epie/, astitch/ and semeval2022_task2/ (default: $IDIOMKIT_DATA, then ../shared/data).",
        show_default=False,
    )] = None,
    output: Annotated[Path | None, typer.Option(
        "--output", "-o", help="Where to write the scorer JSON (default: the bundled scorer "
        "inside the package).", show_default=False,
    )] = None,
    progress: Annotated[bool, typer.Option(
        "--progress/--no-progress", help="Show a progress bar on stderr (when a terminal).",
    )] = True,
) -> None:
    """Fit the finder's candidate scorer on IDEM train (needs scikit-learn), after counting
    how often each entry matches in general text (train splits of PIE-English, EPIE, AStitch
    and SemEval). About 10 s."""
    with exit_on_error():
        from importlib import resources

        from ..detect.calibrate import calibrate
        from ..detect.scorer import BUNDLED_SCORER

        if output is None:
            output = Path(str(resources.files("idiomkit.detect") / "data" / BUNDLED_SCORER))
        params = calibrate(output, data_dir=data_dir, progress=progress)
    typer.echo(f"Wrote the candidate scorer to {output}")
    card = params.get("card", {})
    if card.get("cv_metrics_on_train"):
        typer.echo(f"cross-validated on train: {json.dumps(card['cv_metrics_on_train'])}")
    if card.get("cv_metrics_unseen_idioms"):
        typer.echo("cross-validated by idiom (folds share no gold idiom): "
                   f"{json.dumps(card['cv_metrics_unseen_idioms'])}")


def summarize_lexicon(lexicon: Any) -> dict[str, Any]:
    """Counts that describe a :class:`~idiomkit.lexicon.Lexicon`.

    >>> from idiomkit.lexicon import Lexicon, LexiconEntry
    >>> summarize_lexicon(Lexicon([LexiconEntry("x-1", "spill the beans", "tell")], "mine"))
    ... # doctest: +NORMALIZE_WHITESPACE
    {'name': 'mine', 'entries': 1, 'with_definition': 1, 'filter_out': 0,
     'sources': {'(none)': 1}, 'licenses': {'(none)': 1}, 'sentiment': {'(none)': 1}}
    """
    entries = list(lexicon)

    def counts(values: list[str | None]) -> dict[str, int]:
        return dict(Counter(v or "(none)" for v in values).most_common())

    return {
        "name": lexicon.name,
        "entries": len(entries),
        "with_definition": sum(1 for e in entries if e.definition),
        "filter_out": sum(1 for e in entries if e.filter_out),
        "sources": counts([e.source for e in entries]),
        "licenses": counts([e.license for e in entries]),
        "sentiment": counts([e.sentiment for e in entries]),
    }


def register(app: typer.Typer) -> None:
    app.add_typer(lexicon_app, name="lexicon")
