"""Speed and memory of the idiom finder on IDEM (``idiomkit bench find``).

What is measured, for each method (``default``: the lexicon matcher; ``idem-rules``: the IDEM
paper's rule-based finder), on the 9,685 sentences of IDEM ``train+test``:

- **build**: seconds to construct ``Finder(method=...)`` (``build_s``) and seconds of the first
  ``find`` call (``first_call_s``), which pays for anything the matcher builds lazily (its index,
  WordNet). Both are left out of the throughput.
- **throughput**: ``runs`` passes over all sentences in this process, one ``Finder.find`` per
  sentence, after the build and the first call; every pass's sentences/s and their median.
- **cold start**: wall time from launching a fresh ``python -m idiomkit.cli.app find --method M
  SENTENCE`` process to the first byte of its output (``runs`` launches after one untimed
  launch that warms the OS file cache and writes bytecode; median), and to its exit.
- **peak RSS**: a fresh process loads the sentences, builds the finder and runs all of them,
  then prints its peak resident set size in MiB (``peak_rss_mb``), and the same figure before
  the finder was built (``rss_before_finder_mb``: interpreter, imports and the sentences). On
  Linux the peak is the process's ``VmHWM`` (``/proc/self/status``), because its
  ``resource.getrusage(RUSAGE_SELF).ru_maxrss`` starts at the peak of the process that launched
  it; ``ru_maxrss_mb`` is reported beside it, and used where ``/proc`` is missing
  (``peak_rss_source``).
- **long text** (for ``long_text_methods``, by default only ``default``: the rule-based finder
  takes minutes on 100 kB): one text per size in ``long_text_sizes`` (bytes; default ~0.5 MB and
  ~1 MB), made by joining IDEM sentences with spaces in dataset order (cycling when needed);
  ``Finder.find`` on the whole text, ``runs`` times, median seconds and seconds per MB
  (10^6 bytes). Linear time gives the same seconds per MB for every size
  (``per_mb_ratio`` = largest size's seconds per MB over the smallest's, ~1).

Timings use :func:`time.perf_counter`; the garbage collector is run before every timed pass and
left enabled during it. The result is a results object (:func:`idiomkit.evaluate.make_results`,
task ``bench-find``) with the targets of the design beside the numbers.
"""

from __future__ import annotations

import gc
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ..errors import check_param

TASK = "bench-find"
DATASET = "idem"
SPLIT = "train+test"
DEFAULT_METHODS = ("default", "idem-rules")
#: ~0.5 MB and ~1 MB (bytes, UTF-8)
DEFAULT_LONG_TEXT_SIZES = (500_000, 1_000_000)
#: the rule-based finder is far too slow on long texts to time at these sizes by default
DEFAULT_LONG_TEXT_METHODS = ("default",)
#: the text the cold-start processes search
COLD_START_SENTENCE = "He poured out his whole heart to a friend."

#: targets from the design (a laptop CPU): metric path (dotted, as in the results' metrics)
#: -> (comparison, value)
FIND_TARGETS: dict[str, tuple[str, float]] = {
    "default.throughput.median_sentences_per_s": (">=", 10_000.0),
    "default.cold_start.median_s": ("<=", 1.5),
    "default.peak_rss_mb": ("<=", 300.0),
}

# The child process of the peak-RSS measurement: texts from a JSON file, one Finder, every text.
# On Linux a child's ru_maxrss starts at its parent's peak (the kernel keeps the larger of the
# old and new address spaces' high-water marks across exec, and the parent has run the other
# measurements), so the child reads its own VmHWM from /proc and reports ru_maxrss beside it.
_MEMORY_CHILD = """\
import json, resource, sys, time

def ru_maxrss_mb():
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 1048576 if sys.platform == "darwin" else peak / 1024  # bytes vs KiB

def peak_mb():
    # Linux: this process's own high-water mark (ru_maxrss also counts the parent's, see above)
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024, "VmHWM"
    except OSError:
        pass
    return ru_maxrss_mb(), "ru_maxrss"

method, path = sys.argv[1], sys.argv[2]
with open(path, encoding="utf-8") as handle:
    texts = json.load(handle)
from idiomkit.finder import Finder
before, _ = peak_mb()
start = time.perf_counter()
finder = Finder(method=method)
n_idioms = sum(len(finder.find(text).idioms) for text in texts)
seconds = time.perf_counter() - start
peak, source = peak_mb()
print(json.dumps({"peak_rss_mb": peak, "source": source, "ru_maxrss_mb": ru_maxrss_mb(),
                  "rss_before_finder_mb": before, "n": len(texts), "n_idioms": n_idioms,
                  "seconds": seconds}))
"""


def run_find_benchmark(
    data_dir: str | Path | None = None,
    methods: Sequence[str] = DEFAULT_METHODS,
    runs: int = 3,
    long_text: bool = True,
    progress: bool = True,
    *,
    long_text_sizes: Sequence[int] = DEFAULT_LONG_TEXT_SIZES,
    long_text_methods: Sequence[str] = DEFAULT_LONG_TEXT_METHODS,
    cold_start: bool = True,
    memory: bool = True,
) -> dict[str, Any]:
    """Benchmark ``Finder.find`` for each of ``methods`` on IDEM train+test; return the results.

    ``data_dir`` follows :func:`~idiomkit.datasets.resolve_data_dir`. ``cold_start`` and
    ``memory`` turn the fresh-process measurements on or off; ``long_text`` the long-text
    timings (run for the methods in both ``methods`` and ``long_text_methods``). Progress goes
    to stderr unless ``progress`` is false. See the module docstring for what each number is.
    """
    methods = _check_names("methods", methods)
    check_param("run_find_benchmark", "runs", runs,
                isinstance(runs, int) and not isinstance(runs, bool) and runs >= 1,
                "an integer >= 1")
    sizes = tuple(long_text_sizes) if long_text else ()
    check_param("run_find_benchmark", "long_text_sizes", long_text_sizes,
                not long_text or (len(sizes) >= 1 and all(
                    isinstance(s, int) and not isinstance(s, bool) and s > 0 for s in sizes)),
                "one or more sizes in bytes (integers > 0)")
    long_methods = [m for m in methods if m in set(long_text_methods)] if long_text else []

    from tqdm import tqdm

    from ..datasets import load_dataset
    from ..finder import Finder

    dataset = load_dataset(DATASET, SPLIT, data_dir)
    texts = [example.text for example in dataset]
    check_param("run_find_benchmark", "data_dir", data_dir, len(texts) > 0,
                f"a data directory whose IDEM {SPLIT} split has sentences")

    steps_per_method = 1 + runs + (runs + 1 if cold_start else 0) + (1 if memory else 0)
    total = steps_per_method * len(methods) + len(sizes) * runs * len(long_methods)
    bar = tqdm(total=total, desc="bench find", unit="step", file=sys.stderr,
               disable=not progress, leave=False)

    def step(label: str) -> Callable[[], None]:
        bar.set_description_str(label)
        return lambda: bar.update(1)

    metrics: dict[str, Any] = {}
    texts_file = None
    try:
        if memory:
            with tempfile.NamedTemporaryFile(
                "w", suffix=".json", encoding="utf-8", delete=False
            ) as handle:
                json.dump(texts, handle)
                texts_file = handle.name
        for method in methods:
            done = step(f"{method}: build")
            gc.collect()
            start = time.perf_counter()
            finder = Finder(method=method)
            build_s = time.perf_counter() - start
            start = time.perf_counter()
            finder.find(texts[0])
            first_call_s = time.perf_counter() - start
            done()
            result: dict[str, Any] = {"build_s": _r(build_s), "first_call_s": _r(first_call_s)}

            seconds = []
            n_idioms = 0
            for run in range(runs):
                done = step(f"{method}: pass {run + 1}/{runs}")
                elapsed, n_idioms = _time_pass(finder, texts)
                seconds.append(elapsed)
                done()
            rates = [len(texts) / s for s in seconds]
            result["throughput"] = {
                "runs_sentences_per_s": [_r(r, 1) for r in rates],
                "median_sentences_per_s": _r(statistics.median(rates), 1),
                "runs_s": [_r(s) for s in seconds],
                "median_s": _r(statistics.median(seconds)),
                "idioms_per_pass": n_idioms,
            }

            if method in long_methods:
                result["long_text"] = _long_texts(finder, texts, sizes, runs, method, step)
            del finder
            gc.collect()

            if memory:
                done = step(f"{method}: peak RSS")
                result.update(_peak_rss(method, texts_file))
                done()
            if cold_start:
                result["cold_start"] = _cold_starts(method, runs, step)
            metrics[method] = result
    finally:
        bar.close()
        if texts_file is not None:
            Path(texts_file).unlink(missing_ok=True)

    ratios = {
        f"throughput_default_over_{m}": _r(
            metrics["default"]["throughput"]["median_sentences_per_s"]
            / metrics[m]["throughput"]["median_sentences_per_s"], 3)
        for m in methods if m != "default" and "default" in metrics
    }
    if ratios:
        metrics["ratios"] = ratios

    from ..evaluate import make_results

    configuration = {
        "methods": list(methods),
        "runs": runs,
        "long_text_sizes_bytes": list(sizes),
        "long_text_methods": long_methods,
        "cold_start": cold_start,
        "memory": memory,
        "cold_start_command": [
            "python", "-m", "idiomkit.cli.app", "find", "--method", "METHOD",
            COLD_START_SENTENCE,
        ],
        "timer": "time.perf_counter",
        "machine": machine_info(),
    }
    return make_results(
        task=TASK, dataset=dataset, split=SPLIT, configuration=configuration,
        metrics=metrics, n=len(texts),
        extra={
            "targets": check_targets(metrics),
            # rendered by `idiomkit report` as a row beside the run
            "reference": {"targets": {k: v for k, (_, v) in FIND_TARGETS.items()}},
        },
    )


def machine_info() -> dict[str, Any]:
    """CPU count, Python and platform of the machine the benchmark runs on."""
    return {
        "cpu_count": os.cpu_count(),
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(),
    }


def check_targets(metrics: dict[str, Any],
                  targets: dict[str, tuple[str, float]] | None = None
                  ) -> dict[str, dict[str, Any]]:
    """For each target (default: :data:`FIND_TARGETS`; a dotted metric path -> (``>=`` or
    ``<=``, value)): the target, the measured value and whether it is met (``None`` when the
    number was not measured)."""
    checked = {}
    for path, (op, target) in (FIND_TARGETS if targets is None else targets).items():
        value: Any = metrics
        for part in path.split("."):
            value = value.get(part) if isinstance(value, dict) else None
        met = None
        if isinstance(value, (int, float)):
            met = value >= target if op == ">=" else value <= target
        checked[path] = {"target": f"{op} {target:g}", "value": value, "met": met}
    return checked


def build_long_text(texts: Sequence[str], target_bytes: int) -> tuple[str, int]:
    """Join ``texts`` with spaces, in order and cycling, until the UTF-8 text has at least
    ``target_bytes`` bytes; return it and the number of sentences used.

    >>> build_long_text(["One two.", "Three."], 12)
    ('One two. Three.', 2)
    """
    parts: list[str] = []
    size = -1  # no separator before the first sentence
    index = 0
    while size < target_bytes:
        text = texts[index % len(texts)]
        parts.append(text)
        size += len(text.encode("utf-8")) + 1
        index += 1
    return " ".join(parts), len(parts)


def _check_names(name: str, values: Sequence[str]) -> tuple[str, ...]:
    values = tuple(values)
    check_param("run_find_benchmark", name, values,
                len(values) > 0 and all(isinstance(v, str) and v for v in values)
                and len(set(values)) == len(values),
                "one or more distinct method names")
    return values


def _r(value: float, digits: int = 4) -> float:
    return round(float(value), digits)


def _time_pass(finder: Any, texts: Sequence[str]) -> tuple[float, int]:
    """Seconds for one ``find`` per text, and the idioms found (so no call is optimised away)."""
    gc.collect()
    find = finder.find
    n_idioms = 0
    start = time.perf_counter()
    for text in texts:
        n_idioms += len(find(text).idioms)
    return time.perf_counter() - start, n_idioms


def _long_texts(
    finder: Any, texts: Sequence[str], sizes: Sequence[int], runs: int, method: str,
    step: Callable[[str], Callable[[], None]],
) -> dict[str, Any]:
    timed = {}
    for target in sizes:
        text, n_sentences = build_long_text(texts, target)
        n_bytes = len(text.encode("utf-8"))
        label = f"{target / 1e6:g}MB"
        seconds = []
        n_idioms = 0
        for run in range(runs):
            done = step(f"{method}: long text {label} {run + 1}/{runs}")
            gc.collect()
            start = time.perf_counter()
            n_idioms = len(finder.find(text).idioms)
            seconds.append(time.perf_counter() - start)
            done()
        median = statistics.median(seconds)
        timed[label] = {
            "bytes": n_bytes,
            "chars": len(text),
            "sentences": n_sentences,
            "runs_s": [_r(s) for s in seconds],
            "median_s": _r(median),
            "s_per_mb": _r(median / (n_bytes / 1e6)),
            "idioms": n_idioms,
        }
    per_mb = [entry["s_per_mb"] for entry in timed.values()]
    smallest = min(timed.values(), key=lambda e: e["bytes"])
    largest = max(timed.values(), key=lambda e: e["bytes"])
    result: dict[str, Any] = {"sizes": timed}
    if len(per_mb) > 1 and smallest["s_per_mb"] > 0:
        result["per_mb_ratio"] = _r(largest["s_per_mb"] / smallest["s_per_mb"], 3)
    return result


def _child_env() -> dict[str, str]:
    """The environment of a child process: this process's, with the idiomkit in use first on
    ``PYTHONPATH`` (so a source checkout is measured, not some other installed copy)."""
    import idiomkit

    env = dict(os.environ)
    root = str(Path(idiomkit.__file__).resolve().parents[1])
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
    return env


def _peak_rss(method: str, texts_file: str | None) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-c", _MEMORY_CHILD, method, str(texts_file)],
        capture_output=True, text=True, env=_child_env(), check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(
            f"The peak-RSS process for method '{method}' failed (exit {done.returncode}):\n"
            + done.stderr[-2000:]
        )
    child = json.loads(done.stdout.strip().splitlines()[-1])
    return {
        "peak_rss_mb": _r(child["peak_rss_mb"], 1),
        "peak_rss_source": child["source"],
        "ru_maxrss_mb": _r(child["ru_maxrss_mb"], 1),
        "rss_before_finder_mb": _r(child["rss_before_finder_mb"], 1),
        "memory_run_s": _r(child["seconds"]),
    }


def _cold_starts(
    method: str, runs: int, step: Callable[[str], Callable[[], None]]
) -> dict[str, Any]:
    command = [sys.executable, "-m", "idiomkit.cli.app", "find", "--method", method,
               COLD_START_SENTENCE]
    env = _child_env()
    first, exits = [], []
    for run in range(runs + 1):  # run 0 warms the file cache and bytecode; not counted
        done = step(f"{method}: cold start {run}/{runs}" if run else f"{method}: cold warm-up")
        to_first, to_exit = _launch(command, env)
        if run:
            first.append(to_first)
            exits.append(to_exit)
        done()
    return {
        "runs_s": [_r(s) for s in first],
        "median_s": _r(statistics.median(first)),
        "runs_exit_s": [_r(s) for s in exits],
        "median_exit_s": _r(statistics.median(exits)),
    }


def _launch(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Seconds from launching ``command`` to its first byte on stdout, and to its exit."""
    with tempfile.TemporaryFile() as errors:
        start = time.perf_counter()
        proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=errors, env=env,
                                bufsize=0)
        assert proc.stdout is not None
        head = proc.stdout.read(1)
        to_first = time.perf_counter() - start
        rest = proc.stdout.read()
        proc.stdout.close()
        code = proc.wait()
        to_exit = time.perf_counter() - start
        if code != 0 or not head:
            errors.seek(0)
            raise RuntimeError(
                f"The cold-start process {command[3:6]} failed (exit {code}):\n"
                + errors.read().decode("utf-8", "replace")[-2000:]
            )
    json.loads(head + rest)  # the command printed a whole Document
    return to_first, to_exit
