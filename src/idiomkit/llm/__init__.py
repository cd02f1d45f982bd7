"""LLM tasks (prompt templates + parsers) on any backend (OpenAI-compatible HTTP, local GGUF).

Task x backend: a task renders messages from a versioned template and parses the answer
(:mod:`.tasks`, :mod:`.parse`); a backend only turns messages into an answer (:mod:`.http`,
:mod:`.local`); :mod:`.runner` runs many requests with a disk cache (:mod:`.cache`), a bound
on requests in flight and a progress bar.

    from idiomkit.llm import DetectionTask, GenerationConfig, create_backend
    backend = create_backend("llamacpp", "smollm2-135m")
    task = DetectionTask()
    answer = task.parse(backend.complete(task.messages("He spilled the beans."),
                                         GenerationConfig()).text)
"""

from .base import (
    Backend,
    Completion,
    GenerationConfig,
    Message,
    available_backends,
    create_backend,
    register_backend,
)
from .cache import AnswerCache
from .parse import DetectionAnswer, EmotionAnswer, GenerationAnswer
from .prompts import PromptTemplate, available_templates, load_template
from .runner import Job, Outcome, run_jobs
from .tasks import DetectionTask, EmotionTask, GenerationTask

__all__ = [
    "AnswerCache",
    "Backend",
    "Completion",
    "DetectionAnswer",
    "DetectionTask",
    "EmotionAnswer",
    "EmotionTask",
    "GenerationAnswer",
    "GenerationConfig",
    "GenerationTask",
    "Job",
    "Message",
    "Outcome",
    "PromptTemplate",
    "available_backends",
    "available_templates",
    "create_backend",
    "load_template",
    "register_backend",
    "run_jobs",
]
