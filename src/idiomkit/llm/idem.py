"""IDEM's two LLM uses on any backend: zero-shot emotion recognition (idiom-ignorant and
idiom-aware, Table 2) and data generation (five labelled sentences per idiom, section 3.2).

Both run through :func:`~idiomkit.llm.runner.run_jobs` (cache, bound on requests in flight,
progress) and keep every answer: unparseable ones are counted, generated sentences whose
label is not one of the 36 emotions are dropped and counted, as the paper did.
:func:`prompt_completer` also turns a backend into the ``complete(prompt) -> str`` callable
that :class:`idiomkit.emotion.llm_task.EmotionLLMTask` takes.
"""

from __future__ import annotations

import csv
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .base import Backend, GenerationConfig
from .cache import AnswerCache
from .parse import UNPARSEABLE
from .prompts import PromptTemplate
from .runner import Job, run_jobs, usage_totals
from .tasks import EmotionTask, GenerationTask


def emotion_labels(data_dir: Any = None) -> tuple[str, ...]:
    """The 36 IDEM emotions: :data:`idiomkit.emotion.labels.EMOTIONS`, else read from the IDEM
    data (the sorted set of its labels)."""
    try:
        from ..emotion.labels import EMOTIONS
    except ImportError:
        from ..datasets.paths import dataset_file, resolve_data_dir

        root = resolve_data_dir(data_dir)
        labels: set[str] = set()
        for name in ("idem_train.csv", "idem_test.csv"):
            with open(dataset_file(root, "idem", name), encoding="utf-8-sig",
                      newline="") as handle:
                labels.update(row["emotion"].strip() for row in csv.DictReader(handle))
        return tuple(sorted(labels))
    return tuple(EMOTIONS)


def prompt_completer(
    backend: Backend, *, config: GenerationConfig | None = None,
    cache: AnswerCache | None = None, name: str = "raw-prompt",
) -> Callable[[str], str]:
    """``complete(prompt) -> answer text`` over ``backend``: the prompt is sent as one user
    message; answers are cached under ``name`` (the caller's template name). A failed
    request raises its :class:`~idiomkit.errors.BackendError`."""
    config = config or GenerationConfig()
    template = PromptTemplate(name=name, version=0, user="${prompt}")

    def complete(prompt: str) -> str:
        outcome = run_jobs(backend, [Job("0", template.render(prompt=prompt))], template, config,
                           cache=cache, progress=False)[0]
        if outcome.completion is None:
            from ..errors import BackendError

            error = outcome.error or {"code": "E701", "message": "no answer"}
            raise BackendError(error["code"], error["message"])
        return outcome.completion.text

    return complete


def zero_shot_emotion(
    backend: Backend, examples: Sequence[Any], *, aware: bool,
    definitions: Mapping[str, str] | None = None, labels: Sequence[str] | None = None,
    config: GenerationConfig | None = None, cache: AnswerCache | None = None,
    progress: bool = True,
) -> dict[str, Any]:
    """Ask for each example's emotion; ``definitions`` maps ``idiom_id`` (or the idiom) to its
    definition for the idiom-aware prompt.

    Returns ``{"predictions": [{"id", "gold", "label", "status", "answer"}], "counts",
    "accuracy", "usage"}``; an unparseable answer or a failed request is a wrong prediction.
    """
    task = EmotionTask(labels or emotion_labels(), aware=aware)
    definitions = definitions or {}
    jobs = []
    for example in examples:
        definition = None
        if aware:
            definition = (definitions.get(str(example.idiom_id))
                          or definitions.get(str(example.idiom)))
        jobs.append(Job(str(example.id), task.messages(
            example.text, idiom=example.idiom if aware else None, definition=definition)))
    outcomes = run_jobs(backend, jobs, task.template, config or GenerationConfig(),
                        cache=cache, progress=progress, description=task.name)
    predictions = []
    for example, outcome in zip(examples, outcomes):
        if outcome.completion is None:
            predictions.append({"id": outcome.id, "gold": example.label, "label": None,
                                "status": "error", "error": outcome.error})
            continue
        answer = task.parse(outcome.completion.text)
        predictions.append({"id": outcome.id, "gold": example.label, "label": answer.label,
                            "status": answer.status, "answer": outcome.completion.text})
    correct = sum(p["label"] is not None and p["label"] == p["gold"] for p in predictions)
    return {
        "task": task.name,
        "template": task.template.key,
        "predictions": predictions,
        "counts": dict(Counter(p["status"] for p in predictions)),
        "accuracy": correct / len(predictions) if predictions else 0.0,
        "usage": usage_totals(outcomes),
    }


def generate_idem_data(
    backend: Backend, idioms: Sequence[str], *, labels: Sequence[str] | None = None,
    config: GenerationConfig | None = None, cache: AnswerCache | None = None,
    progress: bool = True,
) -> dict[str, Any]:
    """Five emotion-labelled sentences per idiom, as IDEM generated its data with GPT-4.

    Returns ``{"sentences": [{"idiom", "sentence", "emotion"}], "dropped": [{"idiom",
    "sentence", "label"}], "counts": {...}, "usage"}``: ``dropped`` holds the sentences whose
    label is not one of ``labels``; ``counts`` also has ``unlabelled`` sentences, idioms whose
    answer was ``unparseable`` and ``failed`` requests.
    """
    task = GenerationTask(labels or emotion_labels())
    generation = config or GenerationConfig(max_tokens=400)
    jobs = [Job(str(i), task.messages(idiom)) for i, idiom in enumerate(idioms)]
    outcomes = run_jobs(backend, jobs, task.template, generation, cache=cache,
                        progress=progress, description=task.name)
    sentences, dropped = [], []
    counts = Counter(idioms=len(idioms))
    for idiom, outcome in zip(idioms, outcomes):
        if outcome.completion is None:
            counts["failed"] += 1
            continue
        answer = task.parse(outcome.completion.text)
        counts["unparseable"] += answer.status == UNPARSEABLE
        counts["unlabelled"] += len(answer.unlabelled)
        sentences += [{"idiom": idiom, "sentence": s, "emotion": e} for s, e in answer.items]
        dropped += [{"idiom": idiom, "sentence": s, "label": label}
                    for s, label in answer.dropped]
    counts["kept"] = len(sentences)
    counts["dropped"] = len(dropped)
    return {"template": task.template.key, "sentences": sentences, "dropped": dropped,
            "counts": dict(counts), "usage": usage_totals(outcomes)}
