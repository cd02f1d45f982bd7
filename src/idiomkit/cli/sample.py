"""``idiomkit sample-negatives``: natural-distribution negatives for a set of idiomatic sentences.

The command front end of :func:`idiomkit.audit.sampling.sample_negatives` (Boisson et al., 2023,
VUAC_BO): for each positive (a sentence and the character span of its expression) it draws one
sentence of an unlabelled pool containing the same word sequence, else the same lemma sequence,
else the same part-of-speech sequence, and reports how many negatives fell to each level.

Positives come from a built-in dataset (its idiomatic examples that carry a span) or from a CSV
or JSONL file; the pool is a text file (one sentence per line) or JSONL with a ``text`` field.
The negatives are written as JSONL; the summary goes to stderr (table) or as JSON.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Sequence
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TextIO

import typer

from . import exit_on_error

if TYPE_CHECKING:
    from ..audit.sampling import SamplingResult, Tagger
    from ..audit.sampling_inputs import Pool, Positives

#: POS-tag the pool in chunks of this many sentences, with a progress bar from this many on
TAG_CHUNK = 2000
PROGRESS_FROM = 5000

HELP = """\
Sample natural-distribution negatives for idiomatic sentences (Boisson et al., 2023, VUAC_BO).

For each positive (a sentence and its expression's span) draw one sentence of the --pool that
contains the same word sequence, else the same lemma sequence, else the same part-of-speech
sequence (spaCy's small English tagger). Each pool sentence is used at most once, a pool
sentence equal to a positive never; the draw is seeded.

Positives: --dataset NAME [--split SPLIT] (its idiomatic examples with a span), or --positives
FILE (CSV or JSONL: sentence, expression and/or start/end; an optional label column keeps only
idiomatic/figurative/metaphor rows). Pool: a .txt file (one sentence per line, blank lines
skipped) or .jsonl ({"text": ...} per line).

Negatives are JSONL (text, span, expression, level, positive, positive_id, positive_text,
pool_line) on --output or stdout. The summary (negatives per level, unmatched) goes to stderr
as a table, or with --format json as JSON: on stdout when --output is given, else on stderr so
that stdout stays JSONL.

Example:

  idiomkit sample-negatives --dataset pie-english --pool pool.txt -o negatives.jsonl
"""


class SummaryFormat(str, Enum):
    table = "table"
    json = "json"


def sample_command(
    pool: Annotated[Path, typer.Option(
        "--pool", help="Unlabelled sentences: .txt (one per line) or .jsonl ({\"text\": ...}).",
        show_default=False)],
    dataset: Annotated[str | None, typer.Option(
        "--dataset", help="Positives from a built-in dataset (pie-english, epie-formal, "
        "astitch, …): its idiomatic examples that carry a span.", show_default=False)] = None,
    split: Annotated[str | None, typer.Option(
        "--split", help="Split of --dataset (default: test).", show_default=False)] = None,
    positives_file: Annotated[Path | None, typer.Option(
        "--positives", help="Positives from a CSV/JSONL file: sentence, expression and/or "
        "start/end, optional label.", show_default=False)] = None,
    seed: Annotated[int, typer.Option(help="Seed of the draw.")] = 0,
    levels: Annotated[str, typer.Option(
        help="Levels to try, in order: a comma-separated subset of words,lemmas,pos.")]
    = "words,lemmas,pos",
    output: Annotated[Path | None, typer.Option(
        "--output", "-o", help="Write the negatives (JSONL) here instead of stdout.",
        show_default=False)] = None,
    data_dir: Annotated[Path | None, typer.Option(
        "--data-dir", help="Datasets folder (default: $IDIOMKIT_DATA, then ../shared/data).",
        show_default=False)] = None,
    summary_format: Annotated[SummaryFormat, typer.Option(
        "--format", help="Summary as a table (stderr) or JSON.")] = SummaryFormat.table,
) -> None:
    """Sample natural-distribution negatives (words, else lemmas, else POS) from a pool."""
    with exit_on_error():
        from ..audit.sampling_inputs import negative_records, read_pool

        positives = _positives(dataset, split, positives_file, data_dir)
        sentences = read_pool(pool)
        wanted = tuple(level.strip() for level in levels.split(",") if level.strip())
        _progress(f"sampling negatives for {len(positives.pairs)} positives from "
                  f"{len(sentences.sentences)} pool sentences (levels: {', '.join(wanted)})")
        started = time.perf_counter()
        result = run_sampling(positives, sentences, seed=seed, levels=wanted)
        records = negative_records(result, positives, sentences)
        if output is not None:
            output.parent.mkdir(parents=True, exist_ok=True)
            with open(output, "w", encoding="utf-8") as handle:
                _write_jsonl(records, handle)
        else:
            _write_jsonl(records, sys.stdout)
        summary = make_summary(result, positives, sentences, pool, seed, wanted,
                               time.perf_counter() - started, output)
    if summary_format is SummaryFormat.json:
        typer.echo(json.dumps(summary, indent=2, ensure_ascii=False), err=output is None)
        return
    _print_table(summary)


def run_sampling(
    positives: Positives, pool: Pool, *, seed: int, levels: Sequence[str]
) -> SamplingResult:
    """:func:`~idiomkit.audit.sampling.sample_negatives` with a POS tagger that shows progress."""
    from ..audit.sampling import sample_negatives

    return sample_negatives(positives.pairs, pool.sentences, seed=seed, levels=levels,
                            tagger=_progress_tagger())


def _positives(
    dataset: str | None, split: str | None, positives_file: Path | None, data_dir: Path | None
) -> Positives:
    from ..audit.sampling_inputs import positives_from_dataset, read_positives_file
    from ..errors import ConfigError

    if (dataset is None) == (positives_file is None):
        raise ConfigError(
            "E486",
            "Name the positives once: --dataset NAME [--split SPLIT] or --positives FILE "
            f"(got {'both' if dataset else 'neither'}).",
        )
    if positives_file is not None:
        if split is not None:
            raise ConfigError(
                "E486", "--split selects a split of --dataset; a --positives file is used "
                "whole. Leave out --split.")
        found = read_positives_file(positives_file)
    else:
        found = positives_from_dataset(dataset, split or "test", data_dir)
    if not found.pairs:
        skipped = ", ".join(f"{n} {why}" for why, n in found.skipped.items()) or "none"
        raise ConfigError(
            "E485",
            f"No positives in {found.source} (skipped: {skipped}). Positives are idiomatic "
            "sentences with the span of their expression; pick a dataset or file that has them.",
        )
    return found


def make_summary(
    result: SamplingResult, positives: Positives, pool: Pool, pool_path: Path, seed: int,
    levels: Sequence[str], seconds: float, output: Path | None,
) -> dict[str, Any]:
    """The counts per level (and ``unmatched``) with what they were computed from."""
    return {
        "positives": len(positives.pairs),
        "positives_source": positives.source,
        "positives_skipped": positives.skipped,
        "pool": str(pool_path),
        "pool_sentences": len(pool.sentences),
        "pool_blank_lines": pool.blank_lines,
        "seed": seed,
        "levels": list(levels),
        "counts": result.counts,
        "negatives": len(result.negatives),
        "output": str(output) if output is not None else None,
        "seconds": round(seconds, 2),
    }


def _write_jsonl(records: list[dict], handle: TextIO) -> None:
    for record in records:
        handle.write(json.dumps(record, ensure_ascii=False) + "\n")
    handle.flush()


def _progress(message: str) -> None:
    typer.echo(f"idiomkit: {message}", err=True)


def _progress_tagger() -> Tagger:
    """spaCy's UPOS tagger, loaded on first use, tagging long lists in chunks with a progress
    bar (the POS level tags the whole pool, the slow step on a large pool)."""
    tag: Tagger | None = None

    def tagger(sentences: list[list[str]]) -> list[list[str]]:
        nonlocal tag
        if tag is None:
            from ..audit.sampling import spacy_tagger

            _progress("loading spaCy's English tagger for the POS level")
            tag = spacy_tagger()
        if len(sentences) < PROGRESS_FROM:
            return tag(sentences)
        from tqdm import tqdm

        tags: list[list[str]] = []
        with tqdm(total=len(sentences), desc="POS tagging", unit="sent", file=sys.stderr) as bar:
            for start in range(0, len(sentences), TAG_CHUNK):
                tags.extend(tag(sentences[start:start + TAG_CHUNK]))
                bar.update(min(TAG_CHUNK, len(sentences) - start))
        return tags

    return tagger


def _print_table(summary: dict[str, Any]) -> None:
    counts = summary["counts"]
    lines = [
        f"positives: {summary['positives']} ({summary['positives_source']}); pool: "
        f"{summary['pool_sentences']} sentences (blank lines skipped: "
        f"{summary['pool_blank_lines']}); seed {summary['seed']}; {summary['seconds']} s",
        f"{'level':<10} {'negatives':>9}",
        *(f"{level:<10} {n:>9}" for level, n in counts.items()),
        f"{'sampled':<10} {summary['negatives']:>9}",
    ]
    if summary["output"]:
        lines.append(f"negatives written to {summary['output']}")
    typer.echo("\n".join(lines), err=True)


def register(app: typer.Typer) -> None:
    """Add ``idiomkit sample-negatives``."""
    app.command("sample-negatives", help=HELP)(sample_command)
