"""Local GGUF models through llama-cpp-python (the optional extra ``idiomkit[llm]``).

The model is a packaged name (``smollm2-135m``, ``qwen2.5-0.5b``; see :mod:`.gguf`) or a path
to a ``.gguf`` file. The chat template comes from the GGUF file, as in IdioTS (which also ran
its models through llama-cpp-python). One model answers one request at a time, so
``max_in_flight`` is 1; a lock serialises callers from several threads.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..errors import BackendError, ConfigError, MissingDependencyError
from .base import Completion, GenerationConfig, Message, register_backend
from .gguf import DEFAULT_GGUF, packaged_name, resolve_gguf


class LlamaCppBackend:
    """Chat completions from a GGUF file loaded in this process (loaded at the first request)."""

    name = "idiomkit.llm.llamacpp.v1"
    max_in_flight = 1

    def __init__(
        self,
        model: str | None = None,
        *,
        n_ctx: int = 2048,
        n_threads: int | None = None,
        verbose: bool = False,
    ) -> None:
        self.model = model or DEFAULT_GGUF
        self.n_ctx = n_ctx
        self.n_threads = n_threads
        self.verbose = verbose
        self._llama: Any = None
        self._path: Path | None = None
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"LlamaCppBackend(model={self.model!r}, n_ctx={self.n_ctx})"

    def identity(self) -> dict[str, Any]:
        """Backend and model (the packaged name, else the file's name) for cache keys."""
        name = packaged_name(str(self.model)) or Path(str(self.model)).name
        return {"backend": self.name, "model": name}

    def describe(self) -> dict[str, Any]:
        return {**self.identity(), "n_ctx": self.n_ctx, "n_threads": self._threads()}

    def path(self) -> Path:
        """The GGUF file (resolving, and for parted models joining, it on first use)."""
        if self._path is None:
            self._path = resolve_gguf(self.model)
        return self._path

    def complete(self, messages: Sequence[Message], config: GenerationConfig) -> Completion:
        with self._lock:
            llama = self._load()
            try:
                answer = llama.create_chat_completion(
                    messages=list(messages), temperature=config.temperature, seed=config.seed,
                    max_tokens=config.max_tokens,
                )
            except (ValueError, RuntimeError) as error:
                raise BackendError(
                    "E708", f"The local model '{self.model}' failed to answer: {error}. A prompt "
                    f"longer than the context ({self.n_ctx} tokens) is the usual cause; raise "
                    "n_ctx or shorten the input."
                ) from None
        choice = answer["choices"][0]
        return Completion(
            text=choice["message"].get("content") or "",
            model=self.identity()["model"],
            finish_reason=choice.get("finish_reason"),
            usage=dict(answer.get("usage") or {}),
        )

    def close(self) -> None:
        with self._lock:
            if self._llama is not None:
                self._llama.close()
                self._llama = None

    def _threads(self) -> int:
        return self.n_threads or max(1, min(2, os.cpu_count() or 1))

    def _load(self) -> Any:
        if self._llama is not None:
            return self._llama
        if int(self.n_ctx) < 256:
            raise ConfigError(
                "E431", f"The 'n_ctx' parameter of LlamaCppBackend must be an integer >= 256. "
                f"Got {self.n_ctx!r}."
            )
        llama_cpp = import_llama_cpp()
        path = self.path()
        try:
            self._llama = llama_cpp.Llama(
                model_path=str(path), n_ctx=int(self.n_ctx), n_threads=self._threads(),
                verbose=self.verbose,
            )
        except (ValueError, RuntimeError) as error:
            raise BackendError(
                "E707", f"llama.cpp could not load '{path}': {error}. Check that the file is a "
                "complete GGUF model (reinstall its package)."
            ) from None
        return self._llama


def import_llama_cpp() -> Any:
    """``llama_cpp``, or a coded error saying how to install it."""
    try:
        import llama_cpp
    except ImportError:
        raise MissingDependencyError(
            "E521", "The local GGUF backend needs llama-cpp-python: "
            "CMAKE_ARGS='-DLLAVA_BUILD=OFF' pip install 'idiomkit[llm]' (builds llama.cpp, "
            "about 4 minutes)."
        ) from None
    return llama_cpp


@register_backend(LlamaCppBackend.name)
def make_llamacpp_backend(model: str | None = None, **options: Any) -> LlamaCppBackend:
    return LlamaCppBackend(model, **options)
