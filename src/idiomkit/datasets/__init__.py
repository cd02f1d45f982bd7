"""Dataset readers behind one API (see :func:`load_dataset`)."""

from .base import (
    Dataset,
    DatasetReader,
    Example,
    available_datasets,
    get_reader,
    load_dataset,
    register_dataset,
)
from .paths import checksum, dataset_file, resolve_data_dir

__all__ = [
    "Dataset",
    "DatasetReader",
    "Example",
    "available_datasets",
    "checksum",
    "dataset_file",
    "get_reader",
    "load_dataset",
    "register_dataset",
    "resolve_data_dir",
]
