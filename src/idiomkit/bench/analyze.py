"""Speed and memory of ``analyze`` (find → classify → define) on IDEM (``idiomkit bench analyze``).

Measured on the 9,685 sentences of IDEM ``train+test`` with the default classifier:

- **build**: seconds to construct the :class:`~idiomkit.pipeline.Analyzer` (finder + classifier)
  and of its first call;
- **throughput**: ``runs`` passes of ``Analyzer.analyze_many`` over all sentences (batched
  across sentences: only sentences with candidates are encoded, one forward pass per sentence
  shared by its candidates, length-sorted batches); sentences/s per pass and the median, and
  the CPU seconds of a pass (all threads), which other processes on the machine do not inflate;
- **cold start**: a fresh ``python -m idiomkit.cli.app analyze SENTENCE`` process to the first
  byte of its output (median of ``runs`` after one warm-up launch), as ``bench find`` measures;
- **peak RSS**: a fresh process that builds the analyzer and runs every sentence (``VmHWM``);
- **emotion**: the passes above run find → classify → define (issue 3's ``analyze``); each is
  followed by a pass of the whole ``analyze``, emotion included (what the command runs by
  default): its sentences/s, and the emotion stage's cost as the difference, in milliseconds
  per sentence (median over passes). The difference, not the stage timed alone, because the
  emotion model reuses the classifier's first-layer states within a pass; a third pass without
  that reuse (the baseline it replaces) is timed beside it.

Helpers (machine description, child environment, process launch, rounding) are
:mod:`idiomkit.bench.find`'s.
"""

from __future__ import annotations

import gc
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from ..errors import check_param
from .find import COLD_START_SENTENCE, _child_env, _launch, _r, machine_info
from .find import check_targets as check_find_targets

TASK = "bench-analyze"
DATASET = "idem"
SPLIT = "train+test"
#: issue 3's targets, on 2 cores: metric path -> (comparison, value)
ANALYZE_TARGETS: dict[str, tuple[str, float]] = {
    "throughput.median_sentences_per_s": (">=", 300.0),
    "cold_start.median_s": ("<=", 5.0),
    "peak_rss_mb": ("<=", 1536.0),
    # issue 4: the emotion stage's share of analyze
    "emotion.median_ms_per_sentence": ("<=", 3.0),
}

_MEMORY_CHILD = """\
import json, sys, time
def peak_mb():
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")
model, path = sys.argv[1], sys.argv[2]
texts = json.load(open(path, encoding="utf-8"))
from idiomkit.pipeline import Analyzer
start = time.perf_counter()
analyzer = Analyzer(model)
docs = analyzer.analyze_many(texts)
print(json.dumps({"peak_rss_mb": peak_mb(), "seconds": time.perf_counter() - start,
                  "n_idioms": sum(len(d.idioms) for d in docs)}))
"""


def run_analyze_benchmark(data_dir: str | Path | None = None, *, model: str = "default",
                          runs: int = 3, threads: int = 2, cold_start: bool = True,
                          memory: bool = True, progress: bool = True,
                          limit: int | None = None) -> dict[str, Any]:
    """Benchmark ``analyze`` on IDEM train+test (the first ``limit`` sentences if given);
    return a results object (``bench-analyze``)."""
    check_param("run_analyze_benchmark", "runs", runs, isinstance(runs, int) and runs >= 1,
                "an integer >= 1")
    # BLAS threads are fixed before NumPy is imported by a child; this process may have
    # imported it already, so the limit is set for children and asked of threadpoolctl here.
    os.environ["OPENBLAS_NUM_THREADS"] = os.environ["OMP_NUM_THREADS"] = str(threads)
    _limit_threads(threads)
    from ..datasets import load_dataset
    from ..pipeline import Analyzer

    def say(message: str) -> None:
        if progress:
            print(message, file=sys.stderr, flush=True)

    dataset = load_dataset(DATASET, SPLIT, data_dir)
    texts = [example.text for example in dataset][:limit]
    metrics: dict[str, Any] = {}
    start = time.perf_counter()
    analyzer = Analyzer(model)
    metrics["build_s"] = _r(time.perf_counter() - start)
    start = time.perf_counter()
    analyzer.analyze(COLD_START_SENTENCE)
    metrics["first_call_s"] = _r(time.perf_counter() - start)
    # the passes time find -> classify -> define (issue 3's analyze), each followed by a pass
    # of the whole analyze (issue 4's emotion included), so both budgets can be read off
    emotion_model, analyzer.emotion = analyzer.emotion, None
    seconds, cpu_seconds, full_seconds, unshared_seconds, n_idioms = [], [], [], [], 0
    for run in range(runs):
        gc.collect()
        start, cpu_start = time.perf_counter(), time.process_time()
        docs = analyzer.analyze_many(texts)
        seconds.append(time.perf_counter() - start)
        cpu_seconds.append(time.process_time() - cpu_start)
        n_idioms = sum(len(d.idioms) for d in docs)
        say(f"analyze pass {run + 1}/{runs}: {len(texts) / seconds[-1]:.0f} sentences/s")
        if emotion_model is not None:
            analyzer.emotion = emotion_model
            full_seconds.append(_timed_pass(analyzer, texts))
            # the baseline this replaces: the emotion model computing its first layer again
            shared, analyzer.shared_states = analyzer.shared_states, None
            unshared_seconds.append(_timed_pass(analyzer, texts))
            analyzer.shared_states, analyzer.emotion = shared, None
            say(f"with emotion: {len(texts) / full_seconds[-1]:.0f} sentences/s "
                f"({len(texts) / unshared_seconds[-1]:.0f} without sharing the first layer)")
    analyzer.emotion = emotion_model
    candidates = sum(len(d.idioms) for d in analyzer.finder.find_many(texts))
    per_s = [len(texts) / s for s in seconds]
    metrics["throughput"] = {"runs_sentences_per_s": [_r(v, 1) for v in per_s],
                             "median_sentences_per_s": _r(statistics.median(per_s), 1),
                             "candidates": candidates, "figurative_returned": n_idioms,
                             # CPU time of all threads: what the pass costs, however busy
                             # the machine (on an idle machine wall time ~ CPU time / threads)
                             "median_cpu_s": _r(statistics.median(cpu_seconds)),
                             "sentences_per_cpu_s": _r(len(texts) / statistics.median(
                                 cpu_seconds), 1),
                             "stages": "find, classify, tag, define (emotion: see 'emotion')"}
    if full_seconds:
        emotion_ms = [1000 * (full - plain) / len(texts)
                      for full, plain in zip(full_seconds, seconds)]
        full_per_s = [len(texts) / s for s in full_seconds]
        metrics["emotion"] = {"runs_ms_per_sentence": [_r(v, 3) for v in emotion_ms],
                              "median_ms_per_sentence": _r(statistics.median(emotion_ms), 3),
                              "model": emotion_model.card.get("name"),
                              "config": emotion_model.config.to_dict(),
                              # the whole of `idiomkit analyze`, emotion included
                              "with_emotion_runs_sentences_per_s": [_r(v, 1) for v in full_per_s],
                              "with_emotion_sentences_per_s": _r(statistics.median(full_per_s),
                                                                 1),
                              "without_sharing_sentences_per_s": _r(statistics.median(
                                  len(texts) / s for s in unshared_seconds), 1)}
    if memory:
        say("peak RSS: fresh process over every sentence")
        metrics.update(_peak_rss(model, texts))
    if cold_start:
        command = [sys.executable, "-m", "idiomkit.cli.app", "analyze", "--model", model,
                   COLD_START_SENTENCE]
        env = _child_env()
        first = []
        for run in range(runs + 1):  # run 0 warms the file cache; not counted
            to_first, _ = _launch(command, env)
            if run:
                first.append(to_first)
                say(f"cold start {run}/{runs}: {to_first:.2f}s")
        metrics["cold_start"] = {"runs_s": [_r(s) for s in first],
                                 "median_s": _r(statistics.median(first))}
    from ..evaluate import make_results
    from ..models.artifacts import load_card, resolve_artifact

    card = load_card(resolve_artifact(model))
    configuration = {"model": model, "classifier_config": card.get("config"), "runs": runs,
                     "limit": limit,
                     "threads": threads, "machine": machine_info(),
                     # other processes on the machine slow every number above down
                     "load_average_1_5_15min": [round(v, 2) for v in os.getloadavg()],
                     "timer": "time.perf_counter"}
    return make_results(task=TASK, dataset=dataset, split=SPLIT, configuration=configuration,
                        metrics=metrics, n=len(texts),
                        extra={"targets": check_targets(metrics)})


def _limit_threads(threads: int) -> None:
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        return
    threadpool_limits(threads)


def _timed_pass(analyzer: Any, texts: list[str]) -> float:
    gc.collect()
    start = time.perf_counter()
    analyzer.analyze_many(texts)
    return time.perf_counter() - start


def _peak_rss(model: str, texts: list[str]) -> dict[str, Any]:
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False,
                                     encoding="utf-8") as handle:
        json.dump(texts, handle)
        path = handle.name
    try:
        done = subprocess.run([sys.executable, "-c", _MEMORY_CHILD, model, path],
                              capture_output=True, text=True, env=_child_env(), check=False)
    finally:
        Path(path).unlink(missing_ok=True)
    if done.returncode != 0:
        raise RuntimeError(f"The peak-RSS process failed (exit {done.returncode}):\n"
                           + done.stderr[-2000:])
    child = json.loads(done.stdout.strip().splitlines()[-1])
    return {"peak_rss_mb": _r(child["peak_rss_mb"], 1), "memory_run_s": _r(child["seconds"])}


def check_targets(metrics: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Each of :data:`ANALYZE_TARGETS` with the measured value and whether it is met."""
    return check_find_targets(metrics, ANALYZE_TARGETS)
