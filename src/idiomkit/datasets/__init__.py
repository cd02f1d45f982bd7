"""Dataset readers behind one API (see :func:`load_dataset`)."""

from .paths import checksum, dataset_file, resolve_data_dir

__all__ = ["checksum", "dataset_file", "resolve_data_dir"]
