"""``idiomkit models``: the encoders and trained models this installation can use."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer

from . import exit_on_error

models_app = typer.Typer(help="Encoders and trained models available here.",
                         no_args_is_help=True)


def list_models() -> list[dict[str, Any]]:
    """One record per packaged encoder and per trained model (shipped or user)."""
    from ..detect.tagger import tagger_roots
    from ..models.artifacts import load_card, saved_models, shipped_models, user_models
    from ..models.resolve import packaged_models

    rows: list[dict[str, Any]] = []
    for name, path in packaged_models().items():
        rows.append({"name": name, "kind": "encoder", "where": "package",
                     "installed": path is not None, "path": str(path) if path else None})
    taggers = [(where, saved_models(root)) for where, root in tagger_roots().items()]
    for where, found in [("shipped", shipped_models()), ("user", user_models()), *taggers]:
        for name, path in found.items():
            card = load_card(path)
            config = card.get("config", {})
            test = card.get("metrics", {}).get("test", {})
            rows.append({
                "name": name, "kind": card.get("task", "?"), "where": where, "installed": True,
                "path": str(path), "base": config.get("base"), "format": config.get("format"),
                "num_layers": config.get("num_layers"), "threshold": config.get("threshold"),
                "size_kb": round(sum(p.stat().st_size for p in path.iterdir()) / 1024, 1),
                "test_macro_f1": {k: round(v["macro_f1"], 4) for k, v in test.items()
                                  if isinstance(v, dict) and "macro_f1" in v},
            })
    return rows


@models_app.command("list")
def list_command(
    output_format: Annotated[str, typer.Option("--format", "-f",
                                               help="table or json.")] = "table",
) -> None:
    """List the packaged encoders and the trained models (shipped and your own)."""
    with exit_on_error():
        rows = list_models()
    if output_format == "json":
        typer.echo(json.dumps(rows, indent=2))
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(title="idiomkit models")
    for column in ("name", "kind", "where", "base", "format", "layers", "threshold", "size",
                   "path"):
        table.add_column(column)
    for row in rows:
        if row["kind"] == "encoder":
            table.add_row(row["name"], "encoder", row["where"], "", "", "", "", "",
                          row["path"] or "[red]not installed[/red]")
        else:
            table.add_row(row["name"], row["kind"], row["where"], str(row["base"]),
                          str(row["format"] or "-"), str(row["num_layers"] or "all"),
                          f"{row['threshold']:.3f}", f"{row['size_kb']:.0f} kB", row["path"])
    Console().print(table)


def register(app: typer.Typer) -> None:
    app.add_typer(models_app, name="models")
