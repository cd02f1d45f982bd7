"""Where the datasets live: ``--data-dir``, then ``IDIOMKIT_DATA``, then ``../shared/data``."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable
from pathlib import Path

from ..errors import DataError

ENV_VAR = "IDIOMKIT_DATA"
#: development default: the shared data folder beside the repository
_DEV_DEFAULT = Path(__file__).resolve().parents[4] / "shared" / "data"


def resolve_data_dir(data_dir: str | Path | None = None) -> Path:
    """Return the data directory, or raise a :class:`DataError` that says where data goes."""
    candidates = []
    if data_dir is not None:
        candidates.append(("--data-dir", Path(data_dir)))
    elif os.environ.get(ENV_VAR):
        candidates.append((ENV_VAR, Path(os.environ[ENV_VAR])))
    else:
        candidates.append(("default", _DEV_DEFAULT))
        candidates.append(("default", Path.cwd() / ".." / "shared" / "data"))
    for _, path in candidates:
        if path.is_dir():
            return path.resolve()
    origin, path = candidates[0]
    raise DataError(
        "E301",
        f"No data directory at '{path}' (from {origin}). Put the datasets there (one folder per "
        f"corpus: idem/, slide/, …) and pass --data-dir DIR or set {ENV_VAR}=DIR.",
    )


def dataset_file(data_dir: Path, *parts: str) -> Path:
    """A file inside a dataset folder, or a :class:`DataError` naming what is missing."""
    path = data_dir.joinpath(*parts)
    if not path.is_file():
        raise DataError(
            "E302",
            f"Dataset file '{path}' is missing. Check that '{data_dir}' holds the '{parts[0]}' "
            "folder as distributed (see its SOURCE.md), or point --data-dir elsewhere.",
        )
    return path


def checksum(paths: Iterable[Path]) -> str:
    """SHA-256 over the bytes of ``paths`` (in the given order), as ``sha256:<hex>``."""
    digest = hashlib.sha256()
    for path in paths:
        with open(path, "rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
    return "sha256:" + digest.hexdigest()
