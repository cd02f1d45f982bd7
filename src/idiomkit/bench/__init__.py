"""Speed and memory benchmarks, run by command (``idiomkit bench ...``), never by CI.

Each benchmark is an importable function that returns a results object (see
:func:`idiomkit.evaluate.make_results`); the CLI only parses options and prints.
"""

from .find import FIND_TARGETS, run_find_benchmark

__all__ = ["FIND_TARGETS", "run_find_benchmark"]
