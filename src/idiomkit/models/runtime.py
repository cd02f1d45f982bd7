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
    """Token states after the first layers of one base encoder, kept per input row and depth,
    so that a second model over the same unchanged layers starts where the first left off.

    ``analyze`` runs the figurative classifier, the span tagger and the emotion model over the
    same sentence tokens. The classifier and the tagger both read MiniLM's first 3 layers
    unchanged, the emotion model its first layer: so states are kept at depths 1 and 3, and
    whichever model reads a sentence first computes them for the others. Rows are keyed by
    their token ids and type ids, and forgotten when an :meth:`attached` block ends.
    """

    def __init__(self, base: str | Path, depths: int | tuple[int, ...]) -> None:
        #: the base encoder's folder, and after how many leading layers states are kept
        self.base = str(base)
        self.depths = tuple(sorted({depths} if isinstance(depths, int) else set(depths)))
        self._rows: dict[tuple[bytes, bytes, int], np.ndarray] = {}

    @property
    def layers(self) -> int:
        """The deepest depth kept."""
        return self.depths[-1]

    @classmethod
    def between(cls, *runtimes) -> SharedStates | None:
        """States to share between ``runtimes``: NumPy runtimes over one base, kept at each
        depth that at least two of them run unchanged; else None."""
        if len(runtimes) < 2 or not all(isinstance(r, NumpyRuntime) for r in runtimes):
            return None
        if len({r.path for r in runtimes}) != 1:
            return None
        plain = [r.plain_layers for r in runtimes]
        depths = tuple(d for d in sorted(set(plain)) if d >= 1 and sum(p >= d for p in plain) >= 2)
        return cls(runtimes[0].path, depths) if depths else None

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

    def missing(self, keys: list[tuple[bytes, bytes]], depth: int | None = None) -> list[int]:
        """Indices of the rows not known yet at ``depth`` (default: the shallowest)."""
        depth = self.depths[0] if depth is None else depth
        return [r for r, key in enumerate(keys) if (*key, depth) not in self._rows]

    def known_depth(self, key: tuple[bytes, bytes], limit: int) -> int:
        """The deepest depth up to ``limit`` at which the row is known (0: none)."""
        return max((d for d in self.depths if d <= limit and (*key, d) in self._rows),
                   default=0)

    def put(self, keys: list[tuple[bytes, bytes]], states: np.ndarray, mask: np.ndarray,
            depth: int | None = None) -> None:
        depth = self.depths[0] if depth is None else depth
        for key, row, n in zip(keys, states, mask.sum(1).astype(int).tolist()):
            self._rows[(*key, depth)] = row[:n].copy()

    def get(self, keys: list[tuple[bytes, bytes]], length: int, hidden: int,
            depth: int | None = None) -> np.ndarray:
        """The padded states ``[batch, length, hidden]`` of known rows (padding left zero)."""
        depth = self.depths[0] if depth is None else depth
        out = np.zeros((len(keys), length, hidden), dtype=np.float32)
        for r, key in enumerate(keys):
            row = self._rows[(*key, depth)]
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
        depths = [d for d in shared.depths if d <= self.plain_layers] if shared else []
        if not depths:
            return self.model(ids, types, mask)
        keys = shared.keys(ids, types, mask)
        top = depths[-1]
        out = np.empty((len(keys), ids.shape[1], self.hidden), dtype=np.float32)
        known = [shared.known_depth(key, top) for key in keys]
        for start in sorted(set(known)):
            rows = [r for r, depth in enumerate(known) if depth == start]
            row_keys = [keys[r] for r in rows]
            if start:
                states = shared.get(row_keys, ids.shape[1], self.hidden, start)
            else:
                states = self.model.embed(ids[rows], types[rows])
            # compute on from there, leaving the rows at each deeper shared depth
            for depth in depths:
                if depth > start:
                    states = self.model.layers_from(states, mask[rows], start, depth)
                    shared.put(row_keys, states, mask[rows], depth)
                    start = depth
            out[rows] = states
        return self.model.layers_from(out, mask, top)


class TorchRuntime:
    """A torch module's ``states``, run without gradients and returned as float32 NumPy."""

    def __init__(self, net) -> None:
        self.net = net
        self.hidden = net.hidden

    def states(self, ids: np.ndarray, types: np.ndarray, mask: np.ndarray) -> np.ndarray:
        import torch

        device = next(self.net.parameters()).device
        with torch.inference_mode():
            out = self.net.states(*(torch.from_numpy(a).to(device) for a in (ids, types, mask)))
        return out.float().cpu().numpy()
