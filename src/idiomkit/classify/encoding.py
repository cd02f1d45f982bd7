"""Tokenize rendered items once and pad them per batch (dynamic padding), as NumPy arrays.

Training (torch) and inference (NumPy or torch) share this code, so a saved classifier sees
exactly the token ids it was trained on. The Rust ``tokenizers`` library reads the encoder's
``tokenizer.json`` directly: it imports in ~0.1 s, where ``transformers`` takes seconds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..errors import ModelError


def load_tokenizer(model_dir: str | Path, max_length: int):
    """The encoder's fast tokenizer, truncating to ``max_length`` and not padding."""
    from tokenizers import Tokenizer

    path = Path(model_dir) / "tokenizer.json"
    if path.exists():
        tokenizer = Tokenizer.from_file(str(path))
    else:  # a hub model without tokenizer.json: let transformers convert its vocabulary
        try:
            from transformers import AutoTokenizer
        except ImportError:
            raise ModelError("E615", f"{model_dir} has no tokenizer.json; converting its "
                             "tokenizer needs transformers: pip install 'idiomkit[models]'."
                             ) from None
        tokenizer = AutoTokenizer.from_pretrained(str(model_dir)).backend_tokenizer
    tokenizer.no_padding()
    tokenizer.enable_truncation(max_length)
    return tokenizer


@dataclass(frozen=True)
class Encoded:
    """One tokenized input: ids, segment ids, and the positions of each span's tokens."""

    ids: np.ndarray
    type_ids: np.ndarray
    #: for each requested span, the token positions it covers (empty: span cut off or absent)
    spans: tuple[tuple[int, ...], ...]

    def __len__(self) -> int:
        return len(self.ids)


def span_positions(offsets: Sequence[tuple[int, int]], sequence_ids: Sequence[int | None],
                   span: tuple[int, int] | None) -> tuple[int, ...]:
    """Token positions of the first segment whose characters overlap ``span``.

    >>> span_positions([(0, 0), (0, 2), (3, 7), (8, 11), (0, 0)], [None, 0, 0, 0, None], (3, 11))
    (2, 3)
    """
    if span is None:
        return ()
    start, end = span
    return tuple(
        i for i, ((a, b), seq) in enumerate(zip(offsets, sequence_ids))
        if seq == 0 and b > a and a < end and b > start
    )


def encode(tokenizer, firsts: Sequence[str], seconds: Sequence[str | None],
           spans: Sequence[Sequence[tuple[int, int] | None]]) -> list[Encoded]:
    """Tokenize each (first, second) pair; ``spans[i]`` lists spans in ``firsts[i]``."""
    pairs = [(f, s) if s is not None else f for f, s in zip(firsts, seconds)]
    out = []
    for enc, wanted in zip(tokenizer.encode_batch(pairs), spans):
        seq_ids = enc.sequence_ids
        out.append(Encoded(
            ids=np.asarray(enc.ids, dtype=np.int64),
            type_ids=np.asarray(enc.type_ids, dtype=np.int64),
            spans=tuple(span_positions(enc.offsets, seq_ids, s) for s in wanted),
        ))
    return out


def pad(batch: Sequence[Encoded]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(ids, type_ids, attention mask)`` padded to the longest input of the batch."""
    length = max(len(e) for e in batch)
    ids = np.zeros((len(batch), length), dtype=np.int64)
    types = np.zeros_like(ids)
    mask = np.zeros((len(batch), length), dtype=np.float32)
    for row, enc in enumerate(batch):
        n = len(enc)
        ids[row, :n] = enc.ids
        types[row, :n] = enc.type_ids
        mask[row, :n] = 1.0
    return ids, types, mask


def span_mask(batch: Sequence[Encoded], mask: np.ndarray, which: Sequence[int]) -> np.ndarray:
    """A ``[rows, tokens]`` mask of the tokens of span ``which[r]`` of input ``r``; an input
    whose span is empty (not found, or truncated away) falls back to all its tokens."""
    out = np.zeros_like(mask)
    for row, (enc, k) in enumerate(zip(batch, which)):
        positions = enc.spans[k] if k < len(enc.spans) else ()
        if positions:
            out[row, list(positions)] = 1.0
        else:
            out[row] = mask[row]
    return out


def length_batches(lengths: Sequence[int], batch_size: int,
                   rng: np.random.Generator | None = None) -> list[list[int]]:
    """Indices grouped into batches of similar length (little padding).

    Without ``rng``: sorted by length. With it (training): ties broken at random and the
    batch order shuffled, both from ``rng`` so that a seed fixes them.

    >>> length_batches([5, 1, 3, 2], 2)
    [[1, 3], [2, 0]]
    """
    if rng is None:
        order = sorted(range(len(lengths)), key=lambda i: lengths[i])
    else:
        noise = rng.random(len(lengths))
        order = sorted(range(len(lengths)), key=lambda i: (lengths[i], noise[i]))
    batches = [order[i:i + batch_size] for i in range(0, len(order), batch_size)]
    if rng is not None:
        batches = [batches[i] for i in rng.permutation(len(batches))]
    return batches
