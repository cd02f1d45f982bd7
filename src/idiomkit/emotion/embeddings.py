"""Frozen-encoder embeddings with an on-disk cache, keyed by model and by each input's hash.

Encoding the 9,685 IDEM sentences once per configuration costs minutes on a laptop CPU, and
every experiment reuses them; the cache keeps one shard per encoding call under
``<idiomkit cache>/emotion-embeddings/<model>/``, so a later call encodes only inputs it has not
seen. A key covers the model name, the encoder's ``max_length`` and the exact text (and pair).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from ..models.resolve import cache_dir

_DIGEST = 16  # bytes of sha256 kept per key


def _key(model: str, max_length: int, text: str, pair: str | None) -> bytes:
    payload = "\x1f".join((model, str(max_length), text, "\x00" if pair is None else pair))
    return hashlib.sha256(payload.encode("utf-8")).digest()[:_DIGEST]


class EmbeddingCache:
    """Embeddings of (text, pair) inputs for one encoder, computed once and kept on disk.

    ``encoder`` is an :class:`~idiomkit.models.encoder.Encoder` or ``None`` to build one for
    ``model`` on the first miss (so a warm cache needs no model at all).
    """

    def __init__(self, model: str = "minilm", *, encoder=None, max_length: int = 128,
                 root: Path | None = None, threads: int | None = None) -> None:
        self.model = model
        self.max_length = max_length
        self.threads = threads
        self._encoder = encoder
        slug = re.sub(r"[^A-Za-z0-9._-]+", "_", model)
        self.root = (root or cache_dir() / "emotion-embeddings") / slug
        self._table: dict[bytes, np.ndarray] | None = None

    def _load(self) -> dict[bytes, np.ndarray]:
        if self._table is None:
            self._table = {}
            for shard in sorted(self.root.glob("*.npz")):
                with np.load(shard) as data:
                    keys, vectors = data["keys"], data["vectors"]
                # NumPy's fixed-width bytes drop trailing NULs: pad keys back to full width
                self._table.update(zip((bytes(k).ljust(_DIGEST, b"\0") for k in keys),
                                       vectors))
        return self._table

    @property
    def encoder(self):
        if self._encoder is None:
            from ..models.encoder import Encoder

            self._encoder = Encoder(self.model, max_length=self.max_length, threads=self.threads)
        return self._encoder

    def encode(self, texts: Sequence[str], pairs: Sequence[str] | None = None, *,
               progress: bool = False) -> np.ndarray:
        """One normalised embedding per input, in input order (float32)."""
        table = self._load()
        keys = [_key(self.model, self.max_length, t, pairs[i] if pairs is not None else None)
                for i, t in enumerate(texts)]
        missing_keys: dict[bytes, int] = {}
        for i, key in enumerate(keys):
            if key not in table:
                missing_keys.setdefault(key, i)
        if missing_keys:
            rows = list(missing_keys.values())
            vectors = self.encoder.encode(
                [texts[i] for i in rows], [pairs[i] for i in rows] if pairs is not None else None,
                progress=progress,
            )
            new_keys = list(missing_keys)
            self._save(new_keys, vectors)
            table.update(zip(new_keys, vectors))
        return np.stack([table[k] for k in keys]) if keys else np.zeros((0, 0), np.float32)

    def _save(self, keys: list[bytes], vectors: np.ndarray) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        digest = hashlib.sha256(b"".join(keys)).hexdigest()[:16]
        target = self.root / f"{digest}.npz"
        partial = target.with_suffix(".partial")
        with open(partial, "wb") as handle:
            np.savez(handle, keys=np.array(keys, dtype=f"S{_DIGEST}"), vectors=vectors)
        partial.replace(target)  # a crash mid-write never leaves a shard that looks whole
