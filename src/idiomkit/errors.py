"""Coded errors that say what to do.

Every error idiomkit raises on purpose is an :class:`IdiomkitError` with a stable code
(``E1xx`` input, ``E2xx`` lexicon, ``E3xx`` data, ``E4xx`` configuration, ``E5xx`` optional
dependencies, ``E6xx`` models and weights, ``E7xx`` LLM backends). The code travels into batch error records, so a user can grep for it.

>>> str(IdiomkitError("E101", "Empty text."))
'[E101] Empty text.'
"""

from __future__ import annotations


class IdiomkitError(Exception):
    """An error with a stable code and a message that says what to do."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"[{code}] {message}")
        self.code = code
        self.message = message

    def to_record(self) -> dict[str, str]:
        """The ``{"code", "message"}`` object used in batch error records."""
        return {"code": self.code, "message": self.message}


class InputError(IdiomkitError, ValueError):
    """Bad input text or a bad input file (E1xx)."""


class LexiconError(IdiomkitError, ValueError):
    """A lexicon file or entry that cannot be used (E2xx)."""


class DataError(IdiomkitError, FileNotFoundError):
    """A dataset that is missing or malformed (E3xx)."""


class ConfigError(IdiomkitError, ValueError):
    """An unknown name or an out-of-range parameter (E4xx)."""


class MissingDependencyError(IdiomkitError, ImportError):
    """An optional dependency or data package that is not installed (E5xx)."""


class ModelError(IdiomkitError, ValueError):
    """A model that cannot be resolved or loaded: unknown name, bad or wrong-shape weights (E6xx)."""


class BackendError(IdiomkitError, RuntimeError):
    """An LLM backend that failed after its retries, or answered with an error (E7xx)."""


def check_param(owner: str, name: str, value: object, ok: bool, expected: str) -> None:
    """Raise the one-shape parameter error unless ``ok``.

    >>> check_param("LexiconMatcher", "threshold", 1.5, False, "a float in [0, 1]")
    Traceback (most recent call last):
    ...
    idiomkit.errors.ConfigError: [E401] The 'threshold' parameter of LexiconMatcher must be a float in [0, 1]. Got 1.5.
    """
    if not ok:
        raise ConfigError(
            "E401", f"The '{name}' parameter of {owner} must be {expected}. Got {value!r}."
        )
