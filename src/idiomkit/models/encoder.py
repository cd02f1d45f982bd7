"""A sentence encoder over a resolved model folder: token states and mean-pooled embeddings.

Batches are formed from texts of similar length (sorted, then restored to input order), so
padding stays small; ``torch.set_num_threads`` is respected (``threads`` sets it).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from ..errors import MissingDependencyError
from .resolve import resolve_model_path


def import_torch():
    """``torch`` and ``transformers``, or a coded error that says how to install them."""
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    try:
        import torch
        import transformers
    except ImportError:
        raise MissingDependencyError(
            "E503", "This needs PyTorch and transformers: pip install 'idiomkit[models]' "
            "(it pins torch==2.13.0, the CPU build)."
        ) from None
    transformers.logging.set_verbosity_error()
    transformers.utils.logging.disable_progress_bar()
    return torch, transformers


class Encoder:
    """A Hugging Face encoder used for sentence embeddings.

    >>> enc = Encoder()                                      # doctest: +SKIP
    >>> enc.encode(["She spilled the beans."]).shape          # doctest: +SKIP
    (1, 384)
    """

    def __init__(self, model: str | os.PathLike | None = None, *, max_length: int = 128,
                 threads: int | None = None) -> None:
        torch, transformers = import_torch()
        if threads is not None:
            torch.set_num_threads(threads)
        self.name = str(model) if model is not None else "minilm"
        self.path: Path = resolve_model_path(model)
        self.max_length = max_length
        self.tokenizer = transformers.AutoTokenizer.from_pretrained(str(self.path))
        self.model = transformers.AutoModel.from_pretrained(str(self.path)).eval()
        self.dim: int = self.model.config.hidden_size

    def encode(self, texts: Sequence[str], pairs: Sequence[str] | None = None, *,
               batch_size: int = 64, normalize: bool = True,
               progress: bool = False) -> np.ndarray:
        """Mean-pooled embeddings, one row per text (float32), in input order."""
        import torch

        if pairs is not None and len(pairs) != len(texts):
            raise ValueError("texts and pairs must have the same length")
        def length(i: int) -> int:
            return len(texts[i]) + (len(pairs[i]) if pairs is not None else 0)

        order = sorted(range(len(texts)), key=length)
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        batches = range(0, len(order), batch_size)
        if progress:
            from tqdm.auto import tqdm
            batches = tqdm(batches, desc="encoding", unit="batch")
        with torch.inference_mode():
            for start in batches:
                idx = order[start:start + batch_size]
                first = [texts[i] for i in idx]
                second = [pairs[i] for i in idx] if pairs is not None else None
                enc = self.tokenizer(first, second, padding=True, truncation=True,
                                     max_length=self.max_length, return_tensors="pt")
                states = self.model(**enc).last_hidden_state
                mask = enc["attention_mask"].unsqueeze(-1).to(states.dtype)
                pooled = (states * mask).sum(1) / mask.sum(1).clamp(min=1)
                if normalize:
                    pooled = torch.nn.functional.normalize(pooled, dim=-1)
                out[idx] = pooled.numpy()
        return out
