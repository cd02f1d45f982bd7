"""Where a trained model's encoder runs at inference: NumPy or torch, behind one ``states`` call.

Both give the last kept layer's token states ``[batch, tokens, hidden]`` as float32 NumPy, so
heads and pooling are written once whatever runs the encoder. :class:`NumpyRuntime` runs
BERT-type bases with LoRA deltas merged (no torch import, fast cold start);
:class:`TorchRuntime` wraps a torch module with a ``states(ids, types, mask)`` method (any base,
and the model being trained).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import numpy as np


class NumpyRuntime:
    """The first ``num_layers`` layers of a BERT-type base in NumPy, deltas merged."""

    def __init__(self, path: str | Path, num_layers: int | None,
                 deltas: Mapping[str, np.ndarray] | None = None) -> None:
        from .npbert import NumpyBert

        self.model = NumpyBert(path, num_layers, deltas)
        self.hidden = self.model.hidden

    def states(self, ids: np.ndarray, types: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return self.model(ids, types, mask)


class TorchRuntime:
    """A torch module's ``states``, run without gradients and returned as float32 NumPy."""

    def __init__(self, net) -> None:
        self.net = net
        self.hidden = net.hidden

    def states(self, ids: np.ndarray, types: np.ndarray, mask: np.ndarray) -> np.ndarray:
        import torch

        with torch.inference_mode():
            out = self.net.states(torch.from_numpy(ids), torch.from_numpy(types),
                                  torch.from_numpy(mask))
        return out.float().numpy()
