"""Throughput of an OpenAI-compatible server with N requests in flight (``idiomkit bench llm``).

For each N in ``in_flight`` (default 1, 2, 4), the same ``requests`` IdioTS detection prompts
(the first sentences of :data:`SENTENCES`, cycled) are sent through
:class:`~idiomkit.llm.http.OpenAIBackend` with ``max_in_flight=N``, without the answer cache,
after one untimed warm-up request. Reported per N: wall seconds, requests/s, completion
tokens/s, failed requests and retries. Sentences get a run number appended so
that no server-side prompt cache serves a later level from an earlier one.

By default the server is llama-cpp-python's, started on loopback with a packaged GGUF
model (:class:`~idiomkit.llm.server.LocalServer`); ``base_url`` measures any other server.
"""

from __future__ import annotations

import os
import platform
import time
from collections.abc import Sequence
from typing import Any

from ..errors import check_param

TASK = "bench-llm"
DEFAULT_IN_FLIGHT = (1, 2, 4)
#: short sentences, idiomatic and literal, so that each request is a realistic IdioTS prompt
SENTENCES = (
    "She finally spilled the beans about the surprise party.",
    "The bag split and the beans spilled all over the floor.",
    "We will have to tighten our belts this winter.",
    "He tightened his belt by one more notch.",
    "The new manager really broke the ice at the meeting.",
    "The ship broke the ice on its way to the pole.",
    "Don't count your chickens before they hatch.",
    "The farmer counted his chickens every evening.",
)


def run_llm_benchmark(
    *, model: str = "smollm2-135m", base_url: str | None = None, api_key: str | None = None,
    in_flight: Sequence[int] = DEFAULT_IN_FLIGHT, requests: int = 8, max_tokens: int = 64,
    timeout: float = 300.0, progress: bool = True,
) -> dict[str, Any]:
    """Measure requests/s at each level of ``in_flight``; return a results object."""
    check_param("run_llm_benchmark", "requests", requests, requests >= 1, "an integer >= 1")
    check_param("run_llm_benchmark", "in_flight", list(in_flight),
                bool(in_flight) and all(n >= 1 for n in in_flight), "integers >= 1")
    from ..evaluate import make_results

    if base_url is None:
        from ..llm.server import LocalServer

        with LocalServer(model) as server:
            metrics, served = _measure(server.base_url, server.model, None, in_flight,
                                       requests, max_tokens, timeout, progress)
        server_info: dict[str, Any] = {"server": "llama_cpp.server (started on loopback)",
                                       "n_threads": server.n_threads, "n_ctx": server.n_ctx}
    else:
        from ..llm.http import public_url

        metrics, served = _measure(base_url, model, api_key, in_flight, requests, max_tokens,
                                   timeout, progress)
        server_info = {"server": public_url(base_url)}
    configuration = {
        "model": served, **server_info, "in_flight": list(in_flight), "requests": requests,
        "max_tokens": max_tokens, "template": "idiots-detection.v1",
        "machine": {"cpu_count": os.cpu_count(), "python": platform.python_version()},
    }
    return make_results(TASK, "bench-llm-sentences", "-", configuration, metrics, requests,
                        dataset_checksum=None)


def _measure(base_url: str, model: str, api_key: str | None, levels: Sequence[int],
             requests: int, max_tokens: int, timeout: float, progress: bool
             ) -> tuple[dict[str, Any], str]:
    from ..llm import DetectionTask, GenerationConfig, create_backend
    from ..llm.runner import Job, run_jobs, usage_totals

    task = DetectionTask()
    config = GenerationConfig(max_tokens=max_tokens)
    metrics: dict[str, Any] = {}
    served = model
    for run, level in enumerate(levels):
        backend = create_backend("openai", model, base_url=base_url, api_key=api_key,
                                 max_in_flight=level, timeout=timeout, max_retries=2)
        try:
            served = backend.identity()["model"]
            backend.complete(task.messages("Warm-up: it is raining cats and dogs."), config)
            jobs = [Job(str(i), task.messages(f"{SENTENCES[i % len(SENTENCES)]} ({run}.{i})"))
                    for i in range(requests)]
            started = time.perf_counter()
            outcomes = run_jobs(backend, jobs, task.template, config, cache=None,
                                progress=progress, description=f"in flight {level}")
            seconds = time.perf_counter() - started
        finally:
            backend.close()
        usage = usage_totals(outcomes)
        metrics[f"in_flight_{level}"] = {
            "in_flight": level,
            "seconds": round(seconds, 3),
            "requests_per_s": round(requests / seconds, 4),
            "completion_tokens_per_s": round(usage["completion_tokens"] / seconds, 2),
            "failed": usage["failed"],
            "retries": usage["retries"],
        }
    return metrics, served
