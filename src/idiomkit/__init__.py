"""idiomkit: find idioms in English text, tell figurative from literal use, explain them."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

from .document import Document, Span
from .errors import IdiomkitError
from .finder import Finder, find

try:
    __version__ = version("idiomkit")
except PackageNotFoundError:  # running from a source tree without installation
    __version__ = "0.0.0+unknown"

__all__ = ["Document", "Finder", "IdiomkitError", "Span", "__version__", "find"]
