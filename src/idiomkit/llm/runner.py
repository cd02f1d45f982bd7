"""Run many prompts through a backend: cache first, then up to ``max_in_flight`` at once.

Every job gets exactly one :class:`Outcome`, in job order: the completion, or the backend
error that remained after the backend's retries. A progress bar with an ETA shows on stderr.
When ``abort_after`` requests fail in a row (a server that is down), the run stops with that
error instead of waiting out every remaining request; what was answered is already cached,
so running again resumes.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from typing import Any

from tqdm import tqdm

from ..errors import BackendError
from .base import Backend, Completion, GenerationConfig, Message
from .cache import AnswerCache, cache_key
from .prompts import PromptTemplate


@dataclass(frozen=True)
class Job:
    """One request: an id to report it under, and its rendered messages."""

    id: str
    messages: list[Message]


@dataclass(frozen=True)
class Outcome:
    """What one job got: a completion, or a ``{"code", "message"}`` error."""

    id: str
    completion: Completion | None = None
    error: dict[str, str] | None = None


class _Streak:
    """Consecutive failures, shared by worker threads."""

    def __init__(self) -> None:
        self.count = 0
        self.lock = threading.Lock()

    def record(self, ok: bool) -> int:
        with self.lock:
            self.count = 0 if ok else self.count + 1
            return self.count


def run_jobs(
    backend: Backend,
    jobs: Sequence[Job],
    template: PromptTemplate,
    config: GenerationConfig,
    *,
    cache: AnswerCache | None = None,
    progress: bool = True,
    description: str = "LLM",
    abort_after: int = 5,
) -> list[Outcome]:
    """One :class:`Outcome` per job, in order (see the module docstring)."""
    identity = backend.identity()
    generation = config.to_dict()
    keys = [cache_key(identity, template.key, template.sha256, job.messages, generation)
            for job in jobs]
    outcomes: list[Outcome | None] = [None] * len(jobs)
    todo = []
    for index, job in enumerate(jobs):
        hit = cache.get(keys[index]) if cache is not None else None
        if hit is not None:
            outcomes[index] = Outcome(job.id, completion=hit)
        else:
            todo.append(index)
    bar = tqdm(total=len(jobs), initial=len(jobs) - len(todo), desc=description, unit="req",
               disable=not progress, dynamic_ncols=True, leave=True)
    bar.set_postfix(cached=len(jobs) - len(todo), errors=0)
    streak = _Streak()
    errors = 0
    meta = {**identity, "template": template.key, "template_sha256": template.sha256}

    def work(index: int) -> Outcome:
        job = jobs[index]
        try:
            completion = backend.complete(job.messages, config)
        except BackendError as error:
            streak.record(False)
            return Outcome(job.id, error=error.to_record())
        streak.record(True)
        if cache is not None:
            cache.put(keys[index], completion, {**meta, "id": job.id})
        return Outcome(job.id, completion=completion)

    workers = max(1, int(getattr(backend, "max_in_flight", 1) or 1))
    # Submit lazily (workers + a few ahead) so that stopping after a failure streak
    # leaves the rest unsent.
    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="idiomkit-llm") as pool:
        pending: dict[Future[Outcome], int] = {}
        queue = iter(todo)
        try:
            while True:
                while len(pending) < workers * 2:
                    index = next(queue, None)
                    if index is None:
                        break
                    pending[pool.submit(work, index)] = index
                if not pending:
                    break
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    index = pending.pop(future)
                    outcome = future.result()
                    outcomes[index] = outcome
                    errors += outcome.error is not None
                    bar.update(1)
                    bar.set_postfix(cached=len(jobs) - len(todo), errors=errors)
                if abort_after and streak.count >= abort_after:
                    last = next(o for o in reversed(outcomes) if o is not None and o.error)
                    raise BackendError(
                        "E709", f"Stopped after {streak.count} failed requests in a row; the last "
                        f"said: {last.error['message'] if last.error else ''} Answers received "
                        "so far are cached: fix the cause and run again to resume."
                    )
        finally:
            for future in pending:
                future.cancel()
            bar.close()
    return [o for o in outcomes if o is not None]


def usage_totals(outcomes: Sequence[Outcome]) -> dict[str, Any]:
    """Counts over a run: answered, from cache, failed, retries, tokens."""
    answered = [o.completion for o in outcomes if o.completion is not None]
    return {
        "requests": len(outcomes),
        "answered": len(answered),
        "from_cache": sum(c.cached for c in answered),
        "failed": sum(o.error is not None for o in outcomes),
        "retries": sum(c.attempts - 1 for c in answered if not c.cached),
        "completion_tokens": sum(int(c.usage.get("completion_tokens") or 0) for c in answered),
        "prompt_tokens": sum(int(c.usage.get("prompt_tokens") or 0) for c in answered),
    }
