"""An LLM as an idiom detector: the IdioTS task on any backend, for the detection harness.

>>> from idiomkit.llm.detector import parse_system
>>> parse_system("llm:smollm2-135m")
('llm', 'smollm2-135m')
>>> parse_system("idiomkit")
('idiomkit', None)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..errors import ConfigError
from ..evaluate.detection import DetectionPrediction
from .base import Backend, GenerationConfig
from .cache import AnswerCache
from .parse import UNPARSEABLE
from .runner import Job, run_jobs, usage_totals
from .tasks import DetectionTask


def parse_system(spec: str) -> tuple[str, str | None]:
    """Split a ``--system`` value: ``idiomkit`` or ``llm:<model>``."""
    kind, _, model = spec.partition(":")
    kind = kind.strip().lower()
    if kind == "idiomkit" and not model:
        return "idiomkit", None
    if kind == "llm" and model.strip():
        return "llm", model.strip()
    raise ConfigError(
        "E439", f"Unknown system '{spec}'. Use 'idiomkit' or 'llm:<model>' (e.g. "
        "llm:smollm2-135m, llm:qwen2.5-0.5b, or a model your --base-url server serves)."
    )


class LLMDetector:
    """Asks ``backend`` the IdioTS question for each sentence; answers are cached on disk."""

    def __init__(
        self,
        backend: Backend,
        *,
        task: DetectionTask | None = None,
        config: GenerationConfig | None = None,
        cache: AnswerCache | None = None,
        abort_after: int = 5,
    ) -> None:
        self.backend = backend
        self.task = task or DetectionTask()
        self.config = config or GenerationConfig()
        self.cache = cache
        self.abort_after = abort_after
        self.usage: dict[str, Any] = {}

    @property
    def name(self) -> str:
        return f"llm:{self.backend.identity()['model']}"

    def configuration(self) -> dict[str, Any]:
        describe = getattr(self.backend, "describe", self.backend.identity)
        return {
            "backend": describe(),
            "template": self.task.template.key,
            "template_sha256": self.task.template.sha256,
            "generation": self.config.to_dict(),
            "cache": str(self.cache.path) if self.cache is not None else None,
        }

    def predict(self, examples: Sequence[Any], *, progress: bool = True
                ) -> list[DetectionPrediction]:
        jobs = [Job(str(e.id), self.task.messages(e.text)) for e in examples]
        outcomes = run_jobs(
            self.backend, jobs, self.task.template, self.config, cache=self.cache,
            progress=progress, description=self.name, abort_after=self.abort_after,
        )
        self.usage = usage_totals(outcomes)
        predictions = []
        for outcome in outcomes:
            if outcome.completion is None:
                predictions.append(DetectionPrediction(
                    outcome.id, None, status="error", detail={"error": outcome.error}))
                continue
            answer = self.task.parse(outcome.completion.text)
            predictions.append(DetectionPrediction(
                outcome.id,
                answer.has_idiom if answer.status != UNPARSEABLE else None,
                answer.idiom,
                status=answer.status,
                detail={"answer": outcome.completion.text, "parsed": answer.to_dict(),
                        "cached": outcome.completion.cached,
                        "attempts": outcome.completion.attempts},
            ))
        return predictions
