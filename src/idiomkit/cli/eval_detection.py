"""``idiomkit eval detection``: the IdioTS protocol for an LLM or for idiomkit's own pipeline,
and ``idiomkit eval detection-table``: one Markdown table from several runs."""

from __future__ import annotations

import json
from enum import Enum
from pathlib import Path
from typing import Annotated, Any

import typer

from . import EXIT_RECORD_ERRORS, exit_on_error


class DetectionFormat(str, Enum):
    table = "table"
    json = "json"


class BackendChoice(str, Enum):
    auto = "auto"
    openai = "openai"
    llamacpp = "llamacpp"


def detection_command(
    system: Annotated[str, typer.Option(
        help="'idiomkit' (finder + figurative classifier + span tagger) or 'llm:<model>': a "
        "packaged GGUF "
        "(smollm2-135m, qwen2.5-0.5b), a .gguf file, or a model the --base-url server serves.",
    )] = "idiomkit",
    dataset: Annotated[str, typer.Option(
        help="Dataset name (idiots-style, epie-formal, pie-english) or an IdioTS release file "
        "(CSV/TSV/JSON/JSONL).")] = "idiots-style",
    split: Annotated[str, typer.Option(help="Split of a named dataset (idiots-style: dev to "
                                       "tune, test to report).")] = "test",
    tagger: Annotated[str, typer.Option(
        help="--system idiomkit: the span tagger that adds idioms the lexicon lacks "
        "('default', a trained tagger's name or folder; 'none': lexicon candidates only).",
    )] = "default",
    backend: Annotated[BackendChoice, typer.Option(
        help="LLM backend: auto = llamacpp for a packaged GGUF or .gguf file without "
        "--base-url, else openai (any OpenAI-compatible server).")] = BackendChoice.auto,
    base_url: Annotated[str | None, typer.Option(
        "--base-url", help="OpenAI-compatible API root, e.g. http://127.0.0.1:8080/v1 "
        "(default: $IDIOMKIT_LLM_BASE_URL, then $OPENAI_BASE_URL).", show_default=False)] = None,
    api_key: Annotated[str | None, typer.Option(
        "--api-key", help="API key (default: $IDIOMKIT_LLM_API_KEY, then $OPENAI_API_KEY). "
        "Never written to logs, caches or results.", show_default=False)] = None,
    max_in_flight: Annotated[int, typer.Option(
        "--max-in-flight", min=1, help="Requests at once (HTTP backend).")] = 4,
    timeout: Annotated[float, typer.Option(help="Seconds to wait for one answer.")] = 120.0,
    max_retries: Annotated[int, typer.Option(
        "--max-retries", min=0, help="Retries on 429/5xx/connection errors.")] = 4,
    max_tokens: Annotated[int, typer.Option("--max-tokens", min=1)] = 300,
    seed: Annotated[int, typer.Option(help="Sampling seed sent with every request.")] = 0,
    template_version: Annotated[int, typer.Option(
        "--template-version", help="Version of the idiots-detection prompt.")] = 1,
    cache: Annotated[Path | None, typer.Option(
        help="Answer cache (SQLite; default: ~/.cache/idiomkit/llm/answers.sqlite or "
        "$IDIOMKIT_CACHE/llm/...).", show_default=False)] = None,
    use_cache: Annotated[bool, typer.Option(
        "--cache-answers/--no-cache", help="Reuse and store LLM answers.")] = True,
    limit: Annotated[int | None, typer.Option(
        min=2, help="Only this many sentences, half of each class (a quick check).",
        show_default=False)] = None,
    data_dir: Annotated[Path | None, typer.Option(
        "--data-dir", help="Datasets folder (default: $IDIOMKIT_DATA, then ../shared/data).",
        show_default=False)] = None,
    output_format: Annotated[DetectionFormat, typer.Option(
        "--format", help="table (Markdown, with the paper's Table 1) or json (results).")]
    = DetectionFormat.table,
    output: Annotated[Path | None, typer.Option(
        help="Also write the results JSON and the per-sentence records (JSONL) here.",
        show_default=False)] = None,
    progress: Annotated[bool, typer.Option(help="Progress bar with ETA on stderr.")] = True,
) -> None:
    """Is there an idiom in the sentence? IdioTS's question, metrics and paper numbers.

    Metrics: accuracy, misclassification_rate, recall, specificity, precision,
    balanced_accuracy (IdioTS Table 1), true_positive_consistency (Table 2), distractor_share
    (Table 3); unparseable answers and failed requests count as wrong and are reported.

    Examples:

      idiomkit eval detection --system idiomkit

      idiomkit eval detection --system llm:smollm2-135m --format json

      idiomkit eval detection --system llm:gpt-4o-mini --base-url https://api.openai.com/v1
    """
    with exit_on_error():
        from ..evaluate.detection import evaluate_detection, markdown_table

        data, subset = _load(dataset, split, data_dir, limit)
        detector = _system(
            system, backend.value, base_url=base_url, api_key=api_key,
            max_in_flight=max_in_flight, timeout=timeout, max_retries=max_retries,
            max_tokens=max_tokens, seed=seed, template_version=template_version,
            cache=cache if use_cache else False, tagger=tagger,
        )
        try:
            results, records = evaluate_detection(detector, data, progress=progress, seed=seed)
        finally:
            getattr(getattr(detector, "backend", None), "close", lambda: None)()
        if subset:
            results["configuration"]["subset"] = subset
        if getattr(detector, "usage", None):
            results["usage"] = detector.usage
        if output is not None:
            _write(results, records, output)
    if output_format is DetectionFormat.json:
        typer.echo(json.dumps(results, indent=2, ensure_ascii=False))
    else:
        typer.echo(markdown_table([results]))
        counts = results["counts"]
        typer.echo(
            f"\nn={results['n']} · tp={counts['tp']} fp={counts['fp']} tn={counts['tn']} "
            f"fn={counts['fn']} · answers: {counts['answers']}"
        )
    if results["metrics"]["errors"]:
        raise typer.Exit(EXIT_RECORD_ERRORS)


def _load(dataset: str, split: str, data_dir: Path | None, limit: int | None
          ) -> tuple[Any, str | None]:
    """The dataset, or with ``limit`` a subset and a note saying which one."""
    from ..datasets import Dataset, load_dataset
    from ..datasets.idiots import read_idiots_file

    path = Path(dataset)
    data = read_idiots_file(path) if path.suffix and path.is_file() else load_dataset(
        dataset, split, data_dir)
    if limit is None or limit >= len(data):
        return data, None
    # a quick check still needs both classes: alternate them, in dataset order
    by_class: dict[str, list] = {}
    for example in data:
        by_class.setdefault(str(example.label), []).append(example)
    mixed = [e for group in zip(*by_class.values()) for e in group][:limit]
    chosen = {e.id for e in mixed}
    examples = [e for e in data if e.id in chosen]
    note = f"--limit {limit}: {len(examples)} of {len(data)} sentences, classes alternating"
    return Dataset(data.name, data.split, examples, data.files, data.checksum), note


def _system(spec: str, backend: str, *, cache: Path | None | bool, tagger: str = "default",
            **options: Any) -> Any:
    from ..evaluate.detection import IdiomkitDetector
    from ..llm.detector import parse_system

    kind, model = parse_system(spec)
    if kind == "idiomkit":
        return IdiomkitDetector(tagger=None if tagger.casefold() == "none" else tagger)
    return build_llm_detector(model or "", backend, cache=cache, **options)


def build_llm_detector(
    model: str, backend: str = "auto", *, base_url: str | None = None,
    api_key: str | None = None, max_in_flight: int = 4, timeout: float = 120.0,
    max_retries: int = 4, max_tokens: int = 300, seed: int = 0, template_version: int = 1,
    cache: Path | None | bool = None,
) -> Any:
    """An :class:`~idiomkit.llm.detector.LLMDetector` from the command's options."""
    from ..llm import GenerationConfig, create_backend
    from ..llm.cache import AnswerCache
    from ..llm.detector import LLMDetector
    from ..llm.gguf import packaged_name
    from ..llm.http import BASE_URL_ENV
    from ..llm.tasks import DetectionTask

    if backend == "auto":
        import os

        local = packaged_name(model) is not None or model.lower().endswith(".gguf")
        has_url = base_url or any(os.environ.get(v) for v in BASE_URL_ENV)
        backend = "llamacpp" if local and not has_url else "openai"
    if backend == "openai":
        llm = create_backend("openai", model, base_url=base_url, api_key=api_key,
                             max_in_flight=max_in_flight, timeout=timeout,
                             max_retries=max_retries)
    else:
        llm = create_backend("llamacpp", model)
    answer_cache = None if cache is False else AnswerCache(cache or None)
    return LLMDetector(
        llm, task=DetectionTask(template_version),
        config=GenerationConfig(seed=seed, max_tokens=max_tokens), cache=answer_cache,
    )


def _write(results: dict[str, Any], records: list[dict[str, Any]], output: Path) -> None:
    from ..evaluate import write_results

    path = write_results(results, output)
    records_path = path.with_name(path.stem + ".records.jsonl")
    with open(records_path, "w", encoding="utf-8") as handle:
        for record in records:
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")
    typer.echo(f"results written to {path} (records: {records_path.name})", err=True)


def detection_table_command(
    paths: Annotated[list[Path], typer.Argument(
        help="Detection results JSON files, or folders holding them.")],
    output: Annotated[Path | None, typer.Option(
        "--output", "-o", help="Write the Markdown here instead of stdout.",
        show_default=False)] = None,
) -> None:
    """One Markdown table of detection runs, with the IdioTS paper's Tables 1-3 below them."""
    with exit_on_error():
        from ..evaluate.detection import TASK, markdown_table
        from ..evaluate.report import load_results

        files: list[Path] = []
        for path in paths:
            files.extend(sorted(path.glob("*.json")) if path.is_dir() else [path])
        runs = [r for r in (load_results(f) for f in files) if r.get("task") == TASK]
        markdown = markdown_table(runs)
    if output is None:
        typer.echo(markdown)
    else:
        output.write_text(markdown + "\n", encoding="utf-8")
        typer.echo(f"table written to {output}", err=True)


def register_eval(eval_app: typer.Typer) -> None:
    eval_app.command("detection")(detection_command)
    eval_app.command("detection-table")(detection_table_command)
