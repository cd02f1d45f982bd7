"""Evaluation: metrics (pure functions), harnesses, results files with provenance, reports."""

from .coverage import evaluate_coverage
from .identification import IDEM_REFERENCE, evaluate_identification, finder_configuration
from .metrics import (
    identification_scores,
    normalize_idiom,
    precision_recall_f1,
    span_exact_prf,
    span_hit_rate,
    span_token_overlap_prf,
)
from .report import flatten_metrics, load_results, render_report
from .results import git_info, make_results, package_versions, write_results

__all__ = [
    "IDEM_REFERENCE",
    "evaluate_coverage",
    "evaluate_identification",
    "finder_configuration",
    "flatten_metrics",
    "git_info",
    "identification_scores",
    "load_results",
    "make_results",
    "normalize_idiom",
    "package_versions",
    "precision_recall_f1",
    "render_report",
    "span_exact_prf",
    "span_hit_rate",
    "span_token_overlap_prf",
    "write_results",
]
