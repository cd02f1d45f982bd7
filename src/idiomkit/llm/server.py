"""Start llama-cpp-python's OpenAI-compatible server on loopback with a packaged GGUF model.

Used by the LLM benchmark and the integration tests: a free port, a wait until ``/v1/models``
answers, and the process stopped on exit (SIGTERM, then SIGKILL)::

    with LocalServer("smollm2-135m") as server:
        backend = create_backend("openai", server.model, base_url=server.base_url)
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import IO, Any

from ..errors import BackendError, MissingDependencyError
from .gguf import packaged_name, resolve_gguf
from .local import import_llama_cpp


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class LocalServer:
    """``python -m llama_cpp.server`` for one GGUF model, on 127.0.0.1 (context manager)."""

    def __init__(self, model: str = "smollm2-135m", *, port: int | None = None,
                 n_ctx: int = 2048, n_threads: int | None = None,
                 startup_timeout: float = 120.0) -> None:
        self.model = packaged_name(model) or Path(model).stem
        self.path = resolve_gguf(model)
        self.port = port or free_port()
        self.n_ctx = n_ctx
        self.n_threads = n_threads or max(1, min(2, os.cpu_count() or 1))
        self.startup_timeout = startup_timeout
        self.process: subprocess.Popen[bytes] | None = None
        self._log: IO[bytes] | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def command(self) -> list[str]:
        return [
            sys.executable, "-m", "llama_cpp.server", "--model", str(self.path),
            "--model_alias", self.model, "--host", "127.0.0.1", "--port", str(self.port),
            "--n_ctx", str(self.n_ctx), "--n_threads", str(self.n_threads),
        ]

    def start(self) -> LocalServer:
        import_llama_cpp()
        try:
            import uvicorn  # noqa: F401  (the server extra)
        except ImportError:
            raise MissingDependencyError(
                "E525", "llama-cpp-python's server needs its extra: pip install "
                "'llama-cpp-python[server]==0.3.36' (included in 'idiomkit[llm]')."
            ) from None
        self._log = tempfile.TemporaryFile()
        self.process = subprocess.Popen(self.command(), stdout=self._log,
                                        stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        self._wait_ready()
        return self

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + self.startup_timeout
        while time.monotonic() < deadline:
            if self.process is not None and self.process.poll() is not None:
                raise BackendError(
                    "E710", f"The llama.cpp server exited with code {self.process.returncode} "
                    f"before it was ready. Its output ends: {self.output_tail()}"
                )
            try:
                with urllib.request.urlopen(f"{self.base_url}/models", timeout=2) as reply:
                    if reply.status == 200:
                        return
            except (urllib.error.URLError, OSError):
                time.sleep(0.2)
        tail = self.output_tail()
        self.stop()
        raise BackendError(
            "E710", f"The llama.cpp server did not answer within {self.startup_timeout:.0f} s "
            f"on port {self.port}. Its output ends: {tail}"
        )

    def output_tail(self, limit: int = 600) -> str:
        if self._log is None:
            return ""
        self._log.seek(0)
        return self._log.read().decode("utf-8", errors="replace")[-limit:].strip()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        if self._log is not None:
            self._log.close()
            self._log = None

    def __enter__(self) -> LocalServer:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()
