"""What every LLM backend provides, and the registry that builds one by name.

A backend only turns chat messages into a completion; prompts and parsing belong to tasks
(:mod:`idiomkit.llm.tasks`). Backends are registered under versioned names with short
aliases, as matchers are:

>>> sorted(available_backends())
['idiomkit.llm.llamacpp.v1', 'idiomkit.llm.openai.v1', 'llamacpp', 'local', 'openai']
>>> create_backend("claude-api")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
idiomkit.errors.ConfigError: [E430] Unknown LLM backend 'claude-api'. Available: ...
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol

from ..errors import ConfigError

#: one chat message: ``{"role": "system" | "user" | "assistant", "content": str}``
Message = dict[str, str]


@dataclass(frozen=True)
class GenerationConfig:
    """Decoding settings sent with every request.

    Temperature 0 and a fixed seed make runs repeatable (IdioTS set temperature 0 "to make the
    model output deterministic and the experiment reproducible"). ``max_tokens`` bounds the
    answer: the IdioTS answer (four short JSON fields) fits in far fewer than the default.
    """

    temperature: float = 0.0
    seed: int = 0
    max_tokens: int = 300

    def __post_init__(self) -> None:
        if not 0.0 <= self.temperature <= 2.0:
            raise ConfigError(
                "E431", "The 'temperature' parameter of GenerationConfig must be a float in "
                f"[0, 2]. Got {self.temperature!r}."
            )
        if self.max_tokens < 1:
            raise ConfigError(
                "E431", "The 'max_tokens' parameter of GenerationConfig must be an integer >= 1. "
                f"Got {self.max_tokens!r}."
            )

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Completion:
    """One answer: its text and what the server said about it.

    ``attempts`` counts HTTP attempts (1 = no retry); ``cached`` is true when the answer came
    from the disk cache instead of the backend.
    """

    text: str
    model: str = ""
    finish_reason: str | None = None
    usage: dict[str, Any] = field(default_factory=dict)
    attempts: int = 1
    cached: bool = False

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


class Backend(Protocol):
    """Turns chat messages into a :class:`Completion`.

    ``max_in_flight`` is how many requests the backend lets run at once; callers may submit
    from more threads, the backend holds the extra ones back. ``identity()`` names what
    answers (backend and model) for cache keys and results files; it never holds a secret.
    """

    name: str
    model: str
    max_in_flight: int

    def complete(self, messages: Sequence[Message], config: GenerationConfig) -> Completion: ...

    def identity(self) -> dict[str, Any]: ...

    def close(self) -> None: ...


BackendFactory = Callable[..., Backend]
_REGISTRY: dict[str, BackendFactory] = {}
#: short names for ``--backend``
ALIASES = {
    "openai": "idiomkit.llm.openai.v1",
    "llamacpp": "idiomkit.llm.llamacpp.v1",
    "local": "idiomkit.llm.llamacpp.v1",
}


def register_backend(name: str) -> Callable[[BackendFactory], BackendFactory]:
    """Register a backend factory under a versioned ``name``."""

    def decorator(factory: BackendFactory) -> BackendFactory:
        _REGISTRY[name] = factory
        return factory

    return decorator


def _load_builtin() -> None:
    # Importing the modules registers their factories; they import their heavy
    # dependencies (httpx, llama_cpp) only when a backend is built.
    from . import http, local  # noqa: F401


def available_backends() -> list[str]:
    """Names accepted by :func:`create_backend` (aliases and versioned names)."""
    _load_builtin()
    return sorted(set(ALIASES) | set(_REGISTRY))


def resolve_backend_name(name: str) -> str:
    """The versioned name behind ``name``, or a :class:`ConfigError` listing valid names."""
    _load_builtin()
    resolved = ALIASES.get(name, name)
    if resolved not in _REGISTRY:
        raise ConfigError(
            "E430",
            f"Unknown LLM backend '{name}'. Available: {', '.join(available_backends())}.",
        )
    return resolved


def create_backend(name: str, model: str | None = None, **options: Any) -> Backend:
    """Build the backend registered as ``name`` for ``model`` (see each backend's options)."""
    factory = _REGISTRY[resolve_backend_name(name)]
    return factory(model=model, **options)
