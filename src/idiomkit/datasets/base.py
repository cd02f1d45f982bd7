"""One loader API for every corpus: :class:`Example`, :class:`Dataset`, and the reader registry.

A corpus is one module that defines a :class:`DatasetReader` and registers it with
:func:`register_dataset`; add the module's name to ``_BUILTIN_MODULES`` so that
:func:`load_dataset` finds it without the caller importing anything.

>>> "idem" in available_datasets()
True
>>> load_dataset("idiomatic", "test")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
idiomkit.errors.ConfigError: [E403] Unknown dataset 'idiomatic'. Available: ...idem...
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from ..errors import ConfigError, DataError
from .paths import checksum, dataset_file, resolve_data_dir

#: corpus modules under ``idiomkit.datasets`` that register a reader when imported
_BUILTIN_MODULES = ("idem", "astitch", "semeval", "epie", "pie_english", "idiots")


@dataclass(frozen=True)
class Example:
    """One record of a corpus, the same shape for every corpus.

    ``idiom`` is the gold idiom in dictionary form, ``label`` the corpus's own label (IDEM: the
    emotion; idiomatic/literal corpora: their class). Fields a corpus lacks are ``None``;
    anything corpus-specific goes into ``meta``.
    """

    id: str
    text: str
    idiom: str | None = None
    idiom_id: str | None = None
    label: str | None = None
    # excluded from eq/hash so that examples stay hashable despite the dict
    meta: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)


@dataclass(frozen=True)
class Dataset:
    """The examples of one split, with the files they came from and those files' checksum."""

    name: str
    split: str
    examples: list[Example]
    files: list[Path]
    checksum: str

    def __len__(self) -> int:
        return len(self.examples)

    def __iter__(self) -> Iterator[Example]:
        return iter(self.examples)


class DatasetReader(Protocol):
    """What a corpus module provides: its splits, the files of a split, and a reader."""

    name: str
    #: split names accepted by :func:`load_dataset`, in the order they are listed to users
    splits: tuple[str, ...]

    def files(self, split: str) -> list[tuple[str, ...]]:
        """Files the split is read from, as path parts relative to the data directory."""
        ...

    def read(self, paths: Sequence[Path], split: str) -> Iterator[Example]:
        """Examples from ``paths`` (the resolved :meth:`files` of ``split``, same order)."""
        ...


_REGISTRY: dict[str, DatasetReader] = {}


def register_dataset(reader: DatasetReader) -> DatasetReader:
    """Register ``reader`` under ``reader.name`` (a later registration replaces an earlier one)."""
    _REGISTRY[reader.name] = reader
    return reader


def _load_builtin() -> None:
    # Importing a corpus module registers its reader; done lazily to avoid an import cycle.
    for module in _BUILTIN_MODULES:
        importlib.import_module(f"{__package__}.{module}")


def available_datasets() -> list[str]:
    """Names accepted by :func:`load_dataset`."""
    _load_builtin()
    return sorted(_REGISTRY)


def get_reader(name: str) -> DatasetReader:
    """The registered reader for ``name``, or a :class:`ConfigError` listing the valid names."""
    _load_builtin()
    if name not in _REGISTRY:
        raise ConfigError(
            "E403", f"Unknown dataset '{name}'. Available: {', '.join(available_datasets())}."
        )
    return _REGISTRY[name]


def load_dataset(name: str, split: str, data_dir: str | Path | None = None) -> Dataset:
    """Read one split of a registered corpus from the data directory.

    ``data_dir`` follows :func:`~idiomkit.datasets.resolve_data_dir` (``--data-dir``, then
    ``IDIOMKIT_DATA``, then ``../shared/data``). Unknown names raise :class:`ConfigError`
    (E403 dataset, E404 split); missing or malformed files raise :class:`DataError`.
    """
    reader = get_reader(name)
    if split not in reader.splits:
        raise ConfigError(
            "E404",
            f"Unknown split '{split}' for dataset '{name}'. Available: {', '.join(reader.splits)}.",
        )
    root = resolve_data_dir(data_dir)
    # Resolve every file before reading any, so a missing test file fails before a long read.
    paths = [dataset_file(root, *parts) for parts in reader.files(split)]
    examples = list(reader.read(paths, split))
    _check_unique_ids(name, split, examples)
    return Dataset(name=name, split=split, examples=examples, files=paths, checksum=checksum(paths))


def _check_unique_ids(name: str, split: str, examples: list[Example]) -> None:
    # Results and error analyses key on example ids, so a reader that repeats one is a bug.
    seen: set[str] = set()
    for example in examples:
        if example.id in seen:
            raise DataError(
                "E306",
                f"Dataset '{name}' split '{split}' has the example id '{example.id}' twice. "
                "Check that the data files are the ones its SOURCE.md describes.",
            )
        seen.add(example.id)
