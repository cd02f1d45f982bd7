"""lemminflect, imported without its spaCy hook.

When spaCy is installed, ``import lemminflect`` imports it too (to register token
extensions), which costs 2-20 s of start-up for every command that finds idioms. idiomkit
never uses that hook, so spaCy is hidden during the import; a later ``import spacy`` works as
usual.
"""

from __future__ import annotations

import importlib.abc
import sys


class _HideSpacy(importlib.abc.MetaPathFinder):
    """Makes ``import spacy`` fail while it sits first on ``sys.meta_path``."""

    def find_spec(self, name, path=None, target=None):
        if name == "spacy" or name.startswith("spacy."):
            raise ImportError("hidden while lemminflect loads")
        return None


if "lemminflect" in sys.modules or "spacy" in sys.modules:
    import lemminflect
else:
    _hider = _HideSpacy()
    sys.meta_path.insert(0, _hider)
    try:
        import lemminflect
    finally:
        sys.meta_path.remove(_hider)

__all__ = ["lemminflect"]
