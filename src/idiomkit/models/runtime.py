"""Where a trained model's encoder runs at inference: NumPy or torch, behind one ``states`` call.

Both give the last kept layer's token states ``[batch, tokens, hidden]`` as float32 NumPy, so
heads and pooling are written once whatever runs the encoder. :class:`NumpyRuntime` runs
BERT-type bases with LoRA deltas merged (no torch import, fast cold start);
:class:`TorchRuntime` wraps a torch module with a ``states(ids, types, mask)`` method (any base,
and the model being trained).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

import numpy as np


class SharedStates:
    """Token states after the first ``layers`` layers of one base encoder, kept per input row,
    so that a second model over the same unchanged layers starts where the first left off.

    ``analyze`` runs the figurative classifier and the emotion model over the same sentence
    tokens; both keep MiniLM's first layer as it is, so the emotion model reads that layer's
    output from here instead of computing it again. Rows are keyed by their token ids and
    type ids, and forgotten when an :meth:`attached` block ends.
    """

    def __init__(self, base: str | Path, layers: int) -> None:
        #: the base encoder's folder, and how many of its leading layers are shared
        self.base = str(base)
        self.layers = layers
        self._rows: dict[tuple[bytes, bytes], np.ndarray] = {}

    @classmethod
    def between(cls, *runtimes) -> SharedStates | None:
        """States to share between ``runtimes``: NumPy runtimes over one base, over the leading
        layers they all run unchanged (at least one); else None."""
        if len(runtimes) < 2 or not all(isinstance(r, NumpyRuntime) for r in runtimes):
            return None
        if len({r.path for r in runtimes}) != 1:
            return None
        layers = min(r.plain_layers for r in runtimes)
        return cls(runtimes[0].path, layers) if layers >= 1 else None

    @contextmanager
    def attached(self, *runtimes) -> Iterator[None]:
        """Share these states between ``runtimes`` for the ``with`` block; forget them after."""
        for runtime in runtimes:
            runtime.shared = self
        try:
            yield
        finally:
            for runtime in runtimes:
                runtime.shared = None
            self._rows.clear()

    @staticmethod
    def keys(ids: np.ndarray, types: np.ndarray, mask: np.ndarray) -> list[tuple[bytes, bytes]]:
        lengths = mask.sum(1).astype(int).tolist()
        return [(ids[r, :n].tobytes(), types[r, :n].tobytes()) for r, n in enumerate(lengths)]

    def missing(self, keys: list[tuple[bytes, bytes]]) -> list[int]:
        """Indices of the rows not known yet."""
        return [r for r, key in enumerate(keys) if key not in self._rows]

    def put(self, keys: list[tuple[bytes, bytes]], states: np.ndarray, mask: np.ndarray) -> None:
        for key, row, n in zip(keys, states, mask.sum(1).astype(int).tolist()):
            self._rows[key] = row[:n].copy()

    def get(self, keys: list[tuple[bytes, bytes]], length: int, hidden: int) -> np.ndarray:
        """The padded states ``[batch, length, hidden]`` of known rows (padding left zero)."""
        out = np.zeros((len(keys), length, hidden), dtype=np.float32)
        for r, key in enumerate(keys):
            row = self._rows[key]
            out[r, :len(row)] = row
        return out


class NumpyRuntime:
    """The first ``num_layers`` layers of a BERT-type base in NumPy, deltas merged.

    With ``shared`` (a :class:`SharedStates` over the same base, and layers this runtime runs
    unchanged), rows whose states the other model left there skip those layers; rows computed
    here are left there for it.
    """

    def __init__(self, path: str | Path, num_layers: int | None,
                 deltas: Mapping[str, np.ndarray] | None = None) -> None:
        from .npbert import NumpyBert

        self.path = str(path)
        self.model = NumpyBert(path, num_layers, deltas)
        self.hidden = self.model.hidden
        self.shared: SharedStates | None = None

    @property
    def plain_layers(self) -> int:
        """Leading layers run with the base's weights unchanged (see :class:`SharedStates`)."""
        return self.model.plain_layers

    def states(self, ids: np.ndarray, types: np.ndarray, mask: np.ndarray) -> np.ndarray:
        shared = self.shared
        if shared is None:
            return self.model(ids, types, mask)
        keys = shared.keys(ids, types, mask)
        todo = shared.missing(keys)
        if todo:
            first = self.model.layers_from(self.model.embed(ids[todo], types[todo]),
                                           mask[todo], 0, shared.layers)
            shared.put([keys[r] for r in todo], first, mask[todo])
        start = shared.get(keys, ids.shape[1], self.hidden)
        return self.model.layers_from(start, mask, shared.layers)


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
