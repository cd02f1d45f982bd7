"""The matcher interface and registry.

A matcher turns a text into ranked idiom candidates (:class:`~idiomkit.document.Span`, best
first). Matchers are registered under versioned names; a change of behaviour is a new version,
old names keep working. The CLI's ``--method`` takes the short aliases.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from ..document import Span
from ..errors import ConfigError
from ..lexicon import Lexicon


class Matcher(Protocol):
    """Finds lexicon idioms in one text; ``match`` returns spans ranked best first."""

    name: str

    def match(self, text: str) -> list[Span]: ...


MatcherFactory = Callable[..., Matcher]
_REGISTRY: dict[str, MatcherFactory] = {}
#: short names for the CLI's --method
ALIASES = {
    "default": "idiomkit.lexicon_matcher.v1",
    "lexicon": "idiomkit.lexicon_matcher.v1",
    "idem-rules": "idiomkit.idem_rules.v1",
}


def register_matcher(name: str) -> Callable[[MatcherFactory], MatcherFactory]:
    def decorator(factory: MatcherFactory) -> MatcherFactory:
        _REGISTRY[name] = factory
        return factory

    return decorator


def available_methods() -> list[str]:
    _load_builtin()
    return sorted(set(ALIASES) | set(_REGISTRY))


def create_matcher(method: str, lexicon: Lexicon, **params) -> Matcher:
    """Build the matcher registered as ``method`` (an alias or a versioned name)."""
    _load_builtin()
    name = ALIASES.get(method, method)
    if name not in _REGISTRY:
        raise ConfigError(
            "E402", f"Unknown method '{method}'. Available: {', '.join(available_methods())}."
        )
    return _REGISTRY[name](lexicon=lexicon, **params)


def _load_builtin() -> None:
    # Importing the modules registers their factories.
    from . import idem_rules, lexicon_matcher  # noqa: F401
