"""OpenAI-compatible chat completions over HTTP: hosted APIs, vLLM, Ollama, llama.cpp's server.

The base URL and key come from the options, else from the environment
(``IDIOMKIT_LLM_BASE_URL`` / ``OPENAI_BASE_URL``, ``IDIOMKIT_LLM_API_KEY`` / ``OPENAI_API_KEY``).
A base URL without a path gets ``/v1`` (``http://127.0.0.1:8080`` means
``http://127.0.0.1:8080/v1``).

Robustness, and why it is written here rather than taken from tenacity: the retry loop is
twenty lines, and it must honour the server's ``Retry-After`` (seconds or an HTTP date) and
OpenAI's ``retry-after-ms``, release the in-flight slot while it waits, count attempts into
the completion and keep the key out of every message; with tenacity all of that would be
custom callbacks around it. So:

- timeouts on connect and read (``timeout``);
- retries (``max_retries``) on 408/409/425/429 and 5xx answers, on connection errors (refused,
  reset, dropped mid-answer) and on bodies that are not complete JSON, with exponential backoff
  and jitter, or the server's ``Retry-After`` when it sends one (capped by ``max_retry_after``);
- at most ``max_in_flight`` requests at once, however many threads call :meth:`complete`;
- temperature, seed and max_tokens from the :class:`~idiomkit.llm.base.GenerationConfig`.

The API key is sent only in the ``Authorization`` header and is replaced by ``***`` in every
error message, log line and answer text this module produces.
"""

from __future__ import annotations

import json
import logging
import os
import random
import threading
import time
from collections import Counter
from collections.abc import Sequence
from email.utils import parsedate_to_datetime
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from ..errors import BackendError, ConfigError, MissingDependencyError
from .base import Completion, GenerationConfig, Message, register_backend

log = logging.getLogger("idiomkit.llm")

BASE_URL_ENV = ("IDIOMKIT_LLM_BASE_URL", "OPENAI_BASE_URL")
API_KEY_ENV = ("IDIOMKIT_LLM_API_KEY", "OPENAI_API_KEY")
#: answers worth another try: timeouts, conflicts, rate limits, server errors (all 5xx)
RETRY_STATUS = frozenset({408, 409, 425, 429})
REDACTED = "***"


def _first_env(names: Sequence[str]) -> str | None:
    for name in names:
        value = os.environ.get(name)
        if value:
            return value
    return None


def normalize_base_url(url: str) -> str:
    """The API root that ``/chat/completions`` is appended to.

    >>> normalize_base_url("http://127.0.0.1:8080")
    'http://127.0.0.1:8080/v1'
    >>> normalize_base_url("https://api.example.com/v1/")
    'https://api.example.com/v1'
    >>> normalize_base_url("localhost:11434")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    idiomkit.errors.ConfigError: [E432] The base URL 'localhost:11434' is not an http(s) URL. ...
    """
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ConfigError(
            "E432", f"The base URL '{public_url(url)}' is not an http(s) URL. Give one such as "
            "http://127.0.0.1:8080/v1 (--base-url or IDIOMKIT_LLM_BASE_URL)."
        )
    path = parts.path.rstrip("/") or "/v1"
    return urlunsplit((parts.scheme, parts.netloc, path, parts.query, ""))


def public_url(url: str) -> str:
    """``url`` without user info, query or fragment, which may carry credentials.

    >>> public_url("https://user:secret@api.example.com/v1?key=abc")
    'https://api.example.com/v1'
    """
    parts = urlsplit(url)
    host = parts.hostname or ""
    if parts.port:
        host = f"{host}:{parts.port}"
    return urlunsplit((parts.scheme, host, parts.path, "", ""))


def retry_delay(
    attempt: int, headers: Any = None, *, backoff: float = 0.5, max_backoff: float = 30.0,
    max_retry_after: float = 120.0, now: float | None = None,
) -> float:
    """Seconds to wait before retry number ``attempt`` (1 = first retry).

    The server's ``retry-after-ms`` or ``Retry-After`` (seconds or an HTTP date) wins, capped by
    ``max_retry_after``; otherwise exponential backoff ``backoff * 2**(attempt-1)`` capped by
    ``max_backoff``, with jitter in its upper half so that parallel clients spread out.

    >>> retry_delay(1, {"Retry-After": "3"})
    3.0
    >>> retry_delay(1, {"retry-after-ms": "250"})
    0.25
    >>> retry_delay(2, {"Retry-After": "Wed, 21 Oct 2015 07:28:10 GMT"},
    ...             now=parsedate_to_datetime("Wed, 21 Oct 2015 07:28:00 GMT").timestamp())
    10.0
    >>> 1.0 <= retry_delay(3, {}, backoff=0.5) <= 2.0
    True
    """
    headers = {k.lower(): v for k, v in dict(headers or {}).items()}
    server = _server_delay(headers, now)
    if server is not None:
        return min(max(server, 0.0), max_retry_after)
    delay = min(backoff * 2 ** (attempt - 1), max_backoff)
    return delay / 2 + random.uniform(0, delay / 2)


def _server_delay(headers: dict[str, str], now: float | None) -> float | None:
    if "retry-after-ms" in headers:
        try:
            return float(headers["retry-after-ms"]) / 1000
        except ValueError:
            pass
    value = headers.get("retry-after")
    if value is None:
        return None
    try:
        return float(value)
    except ValueError:
        pass
    try:
        moment = parsedate_to_datetime(value).timestamp()
    except (TypeError, ValueError):
        return None
    return moment - (time.time() if now is None else now)


class _Retryable(Exception):
    """One failed attempt worth repeating; ``kind`` picks the final error's code."""

    def __init__(self, kind: str, reason: str, headers: Any = None) -> None:
        super().__init__(reason)
        self.kind = kind
        self.reason = reason
        self.headers = headers


#: final error code and advice per kind of repeated failure
_GIVE_UP = {
    "connection": ("E701", "Check that the server runs and that --base-url / "
                   "IDIOMKIT_LLM_BASE_URL points to it."),
    "status": ("E702", "The server is overloaded or failing; try again later, lower "
               "--max-in-flight, or raise --max-retries."),
    "json": ("E704", "The server sent incomplete or invalid JSON; check its logs."),
    "timeout": ("E705", "The server did not answer in time; raise --timeout or lower "
                "--max-in-flight."),
}


class OpenAIBackend:
    """Chat completions from any OpenAI-compatible server (see the module docstring).

    ``model`` defaults to the first model the server lists under ``/models``. Parameters are
    stored as given and checked at the first request.
    """

    name = "idiomkit.llm.openai.v1"

    def __init__(
        self,
        model: str | None = None,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        timeout: float = 120.0,
        connect_timeout: float = 10.0,
        max_retries: int = 4,
        backoff: float = 0.5,
        max_backoff: float = 30.0,
        max_retry_after: float = 120.0,
        max_in_flight: int = 4,
    ) -> None:
        self.model = model or ""
        self.base_url = base_url or _first_env(BASE_URL_ENV)
        # Private: never part of repr(), identity() or describe().
        self._api_key = api_key or _first_env(API_KEY_ENV)
        self.timeout = timeout
        self.connect_timeout = connect_timeout
        self.max_retries = max_retries
        self.backoff = backoff
        self.max_backoff = max_backoff
        self.max_retry_after = max_retry_after
        self.max_in_flight = max_in_flight
        #: what happened so far: requests sent, retries per reason, failures
        self.stats: Counter[str] = Counter()
        self._slots = threading.BoundedSemaphore(max(1, int(max_in_flight)))
        self._lock = threading.Lock()
        self._client: Any = None
        self._root: str | None = None

    def __repr__(self) -> str:
        key = REDACTED if self._api_key else None
        return (f"OpenAIBackend(model={self.model!r}, base_url={self._public_base()!r}, "
                f"api_key={key!r}, max_in_flight={self.max_in_flight})")

    # -- public ---------------------------------------------------------------------------
    def identity(self) -> dict[str, Any]:
        """Backend and model name: what the cache keys on (the server's address may change)."""
        self._ensure_model()
        return {"backend": self.name, "model": self.model}

    def describe(self) -> dict[str, Any]:
        """Settings for a results file (no key, no credentials in the URL)."""
        return {
            **self.identity(),
            "base_url": self._public_base(),
            "timeout": self.timeout,
            "max_retries": self.max_retries,
            "max_in_flight": self.max_in_flight,
        }

    def complete(self, messages: Sequence[Message], config: GenerationConfig) -> Completion:
        """One chat completion, retried as the module docstring says."""
        self._ensure_model()
        payload = {
            "model": self.model,
            "messages": list(messages),
            "temperature": config.temperature,
            "seed": config.seed,
            "max_tokens": config.max_tokens,
            "stream": False,
        }
        attempt = 0
        while True:
            attempt += 1
            try:
                body = self._post_once("/chat/completions", payload)
                return self._completion(body, attempt)
            except _Retryable as failure:
                reason = self.redact(failure.reason)
                if attempt > self.max_retries:
                    self.stats["failed"] += 1
                    code, advice = _GIVE_UP[failure.kind]
                    raise BackendError(
                        code, f"LLM request to {self._public_base()} failed after {attempt} "
                        f"attempt(s): {reason}. {advice}"
                    ) from None
                delay = retry_delay(
                    attempt, failure.headers, backoff=self.backoff, max_backoff=self.max_backoff,
                    max_retry_after=self.max_retry_after,
                )
                self.stats[f"retry_{failure.kind}"] += 1
                log.warning("LLM request failed (%s); retry %d of %d in %.2f s", reason,
                            attempt, self.max_retries, delay)
                time.sleep(delay)

    def list_models(self) -> list[str]:
        """Model ids the server lists under ``/models`` (no retries: a quick check)."""
        client = self._ensure_client()
        httpx = _import_httpx()
        try:
            response = client.get(f"{self._root}/models")
        except httpx.HTTPError as error:
            raise BackendError(
                "E701", f"Could not list the models of {self._public_base()}: "
                f"{self.redact(_describe_error(error))}. {_GIVE_UP['connection'][1]}"
            ) from None
        if response.status_code >= 400:
            raise self._client_error(response)
        try:
            data = response.json().get("data") or []
            return [str(item["id"]) for item in data if isinstance(item, dict) and "id" in item]
        except (ValueError, AttributeError):
            raise BackendError(
                "E704", f"{self._public_base()}/models did not answer with a model list."
            ) from None

    def redact(self, text: str) -> str:
        """``text`` with the API key replaced by ``***``."""
        if self._api_key and self._api_key in text:
            text = text.replace(self._api_key, REDACTED)
        return text

    def close(self) -> None:
        with self._lock:
            if self._client is not None:
                self._client.close()
                self._client = None

    # -- internals ------------------------------------------------------------------------
    def _public_base(self) -> str:
        return public_url(self.base_url) if self.base_url else "(no base URL)"

    def _ensure_client(self) -> Any:
        with self._lock:
            if self._client is not None:
                return self._client
            self._check_params()
            httpx = _import_httpx()
            self._root = normalize_base_url(self.base_url or "")
            headers = {"Content-Type": "application/json"}
            if self._api_key:
                headers["Authorization"] = f"Bearer {self._api_key}"
            self._client = httpx.Client(
                timeout=httpx.Timeout(self.timeout, connect=min(self.connect_timeout,
                                                                self.timeout)),
                limits=httpx.Limits(max_connections=self.max_in_flight,
                                    max_keepalive_connections=self.max_in_flight),
                headers=headers,
                follow_redirects=False,
            )
            return self._client

    def _check_params(self) -> None:
        if not self.base_url:
            raise ConfigError(
                "E432", "No base URL for the OpenAI-compatible backend. Pass --base-url URL "
                "(e.g. http://127.0.0.1:8080/v1) or set IDIOMKIT_LLM_BASE_URL."
            )
        checks = (
            ("timeout", self.timeout, self.timeout > 0, "a number > 0 (seconds)"),
            ("max_retries", self.max_retries, int(self.max_retries) >= 0, "an integer >= 0"),
            ("max_in_flight", self.max_in_flight, int(self.max_in_flight) >= 1,
             "an integer >= 1"),
            ("backoff", self.backoff, self.backoff >= 0, "a number >= 0 (seconds)"),
        )
        key = self._api_key or ""
        if key and not (key.isascii() and key.isprintable() and " " not in key.strip()):
            # said without the key: an HTTP library's own error would quote the header value
            raise ConfigError(
                "E440", "The API key has characters that cannot be sent in an HTTP header "
                "(spaces, line breaks, non-ASCII). Check how it was copied."
            )
        for name, value, ok, expected in checks:
            if not ok:
                raise ConfigError(
                    "E431", f"The '{name}' parameter of OpenAIBackend must be {expected}. "
                    f"Got {value!r}."
                )

    def _ensure_model(self) -> None:
        if self.model:
            return
        models = self.list_models()
        if not models:
            raise ConfigError(
                "E433", f"The server at {self._public_base()} lists no model; pass --model NAME."
            )
        self.model = models[0]

    def _post_once(self, path: str, payload: dict[str, Any]) -> dict[str, Any]:
        client = self._ensure_client()
        httpx = _import_httpx()
        with self._slots:
            self.stats["requests"] += 1
            try:
                response = client.post(f"{self._root}{path}", json=payload)
                raw = response.content  # read the whole body inside the slot
            except httpx.TimeoutException as error:
                raise _Retryable("timeout", _describe_error(error)) from None
            except httpx.TransportError as error:
                raise _Retryable("connection", _describe_error(error)) from None
        status = response.status_code
        if status in RETRY_STATUS or status >= 500:
            raise _Retryable("status", f"HTTP {status} {_snippet(raw)}", response.headers)
        if status >= 400:
            raise self._client_error(response)
        try:
            body = json.loads(raw)
        except (ValueError, UnicodeDecodeError):
            raise _Retryable("json", f"invalid JSON body {_snippet(raw)}") from None
        if not isinstance(body, dict):
            raise _Retryable("json", f"a JSON {type(body).__name__} instead of an object")
        return body

    def _client_error(self, response: Any) -> BackendError:
        status = response.status_code
        advice = {
            401: "Check the API key (--api-key, IDIOMKIT_LLM_API_KEY or OPENAI_API_KEY).",
            403: "The API key is not allowed to use this model or endpoint.",
            404: "Check the base URL (it usually ends in /v1) and the model name.",
        }.get(status, "Check the request options (model, max tokens) against the server.")
        return BackendError(
            "E703", self.redact(f"The LLM server at {self._public_base()} refused the request "
                                f"with HTTP {status} {_snippet(response.content)}. {advice}")
        )

    def _completion(self, body: dict[str, Any], attempts: int) -> Completion:
        choices = body.get("choices")
        if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
            raise BackendError(
                "E706", self.redact(f"The LLM server answered without choices: "
                                    f"{_snippet(json.dumps(body).encode())}. Check that the "
                                    "base URL is an OpenAI-compatible /v1 endpoint.")
            )
        choice = choices[0]
        message = choice.get("message") or {}
        text = message.get("content") if isinstance(message, dict) else None
        if text is None:
            text = choice.get("text") or ""  # legacy completions shape
        usage = body.get("usage") if isinstance(body.get("usage"), dict) else {}
        return Completion(
            text=self.redact(str(text)),
            model=str(body.get("model") or self.model),
            finish_reason=choice.get("finish_reason"),
            usage=usage,
            attempts=attempts,
        )


def _snippet(raw: bytes, limit: int = 200) -> str:
    text = raw.decode("utf-8", errors="replace").strip().replace("\n", " ")
    if not text:
        return "(empty body)"
    return repr(text[:limit] + ("…" if len(text) > limit else ""))


def _describe_error(error: Exception) -> str:
    # httpx messages name the URL at most, never headers
    return f"{type(error).__name__}: {error}" if str(error) else type(error).__name__


def _import_httpx() -> Any:
    try:
        import httpx
    except ImportError:
        raise MissingDependencyError(
            "E520", "The OpenAI-compatible backend needs httpx: pip install 'idiomkit[llm]'."
        ) from None
    return httpx


@register_backend(OpenAIBackend.name)
def make_openai_backend(model: str | None = None, **options: Any) -> OpenAIBackend:
    return OpenAIBackend(model, **options)
