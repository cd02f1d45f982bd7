"""Batch input and output: streaming readers (txt, JSONL, CSV/TSV) and the JSONL batch runner."""

from __future__ import annotations

from .batch import BatchSummary, count_complete_lines, run_batch
from .readers import INPUT_FORMATS, Record, RecordReader, detect_format, read_records

__all__ = [
    "INPUT_FORMATS",
    "BatchSummary",
    "Record",
    "RecordReader",
    "count_complete_lines",
    "detect_format",
    "read_records",
    "run_batch",
]
