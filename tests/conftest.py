"""Shared fixtures."""

from __future__ import annotations

from pathlib import Path

import pytest

from idiomkit.datasets import resolve_data_dir
from idiomkit.errors import DataError


@pytest.fixture(scope="session")
def shared_data_dir() -> Path:
    """The real datasets folder (--data-dir default / IDIOMKIT_DATA), or skip the test."""
    try:
        return resolve_data_dir()
    except DataError as error:
        pytest.skip(f"shared datasets not available ({error}); set IDIOMKIT_DATA to run")
