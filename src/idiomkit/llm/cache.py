"""A disk cache of LLM answers, so reruns are free and interrupted runs resume.

The key is the SHA-256 of the backend and model (:meth:`Backend.identity`), the prompt
template's name and hash, the rendered messages and the generation settings: change any of
them and the answer is asked for again. Each answer is committed as soon as it arrives
(SQLite, one file), so a run killed half-way keeps everything it got. Failed requests are
not cached; unparseable answers are (they are what the model said).

What is stored: the key's parts (no API key, no server address) and the answer text.

>>> import tempfile, pathlib
>>> cache = AnswerCache(pathlib.Path(tempfile.mkdtemp()) / "answers.sqlite")
>>> key = cache_key({"backend": "b", "model": "m"}, "t.v1", "abc", [{"role": "user",
...                  "content": "Hi"}], {"temperature": 0.0})
>>> cache.get(key) is None
True
>>> cache.put(key, Completion("Hello", model="m"), {"model": "m"})
>>> cache.get(key).text, cache.get(key).cached
('Hello', True)
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..errors import DataError
from ..models.resolve import cache_dir
from .base import Completion, Message


def default_cache_path() -> Path:
    """``<idiomkit cache>/llm/answers.sqlite`` (``$IDIOMKIT_CACHE`` or ``~/.cache/idiomkit``)."""
    return cache_dir() / "llm" / "answers.sqlite"


def cache_key(
    identity: dict[str, Any], template: str, template_sha256: str,
    messages: Sequence[Message], generation: dict[str, Any],
) -> str:
    """The cache key of one request (see the module docstring)."""
    material = {
        "identity": identity,
        "template": template,
        "template_sha256": template_sha256,
        "messages": list(messages),
        "generation": generation,
    }
    blob = json.dumps(material, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


class AnswerCache:
    """Answers by key in one SQLite file; safe to share between threads of one process."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else default_cache_path()
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None

    def _connect(self) -> sqlite3.Connection:
        if self._db is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            try:
                db = sqlite3.connect(self.path, check_same_thread=False, timeout=30)
                db.execute("PRAGMA journal_mode=WAL")
                db.execute(
                    "CREATE TABLE IF NOT EXISTS answers (key TEXT PRIMARY KEY, created REAL, "
                    "meta TEXT, completion TEXT)"
                )
                db.commit()
            except sqlite3.DatabaseError as error:
                raise DataError(
                    "E334", f"The LLM answer cache '{self.path}' cannot be used ({error}). "
                    "Delete it (answers will be asked for again) or pass another --cache."
                ) from None
            self._db = db
        return self._db

    def get(self, key: str) -> Completion | None:
        with self._lock:
            row = self._connect().execute(
                "SELECT completion FROM answers WHERE key = ?", (key,)
            ).fetchone()
        if row is None:
            return None
        data = json.loads(row[0])
        data["cached"] = True
        return Completion(**data)

    def put(self, key: str, completion: Completion, meta: dict[str, Any]) -> None:
        data = completion.to_dict()
        data.pop("cached", None)
        with self._lock:
            db = self._connect()
            db.execute(
                "INSERT OR REPLACE INTO answers VALUES (?, ?, ?, ?)",
                (key, time.time(), json.dumps(meta, ensure_ascii=False),
                 json.dumps(data, ensure_ascii=False)),
            )
            db.commit()

    def __len__(self) -> int:
        with self._lock:
            return self._connect().execute("SELECT COUNT(*) FROM answers").fetchone()[0]

    def close(self) -> None:
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None
