"""LoRA adapters (Hu et al., 2021) for the Linear layers of a transformer encoder, in plain torch.

A frozen ``W`` plus a trainable low-rank ``scale * B @ A`` (``A``: rank x in, ``B``: out x rank,
``B`` starting at zero so training starts from the pretrained encoder). Only ``A``, ``B`` are
saved (a few hundred kB), and :func:`merged_deltas` turns them into plain weight updates that
the NumPy runtime adds to the base weights once at load time.
"""

from __future__ import annotations

import math

import numpy as np


def _torch():
    from .encoder import import_torch

    return import_torch()[0]


def lora_linear_class():
    """The ``LoRALinear`` module class (defined lazily: torch is an optional dependency)."""
    torch = _torch()

    class LoRALinear(torch.nn.Module):
        """``base(x) + scale * (x @ A.T) @ B.T`` with ``base`` frozen."""

        def __init__(self, base: torch.nn.Linear, rank: int, alpha: float,
                     dropout: float) -> None:
            super().__init__()
            self.base = base
            for param in self.base.parameters():
                param.requires_grad_(False)
            self.rank = rank
            self.scale = alpha / rank
            self.lora_A = torch.nn.Parameter(torch.empty(rank, base.in_features))
            self.lora_B = torch.nn.Parameter(torch.zeros(base.out_features, rank))
            torch.nn.init.kaiming_uniform_(self.lora_A, a=math.sqrt(5))
            self.dropout = torch.nn.Dropout(dropout)

        def forward(self, x):
            update = (self.dropout(x) @ self.lora_A.T) @ self.lora_B.T
            return self.base(x) + self.scale * update

    return LoRALinear


def add_lora(encoder, rank: int = 8, alpha: float = 16.0, dropout: float = 0.0) -> list[str]:
    """Wrap every Linear layer inside ``encoder.encoder.layer`` with LoRA; freeze the rest.

    Returns the wrapped layers' names (``encoder.layer.0.attention.self.query`` ...), the keys
    under which their ``lora_A``/``lora_B`` are saved.
    """
    torch = _torch()
    lora_cls = lora_linear_class()
    for param in encoder.parameters():
        param.requires_grad_(False)
    names = []
    for name, module in list(encoder.named_modules()):
        if not name.startswith("encoder.layer."):
            continue
        for child_name, child in list(module.named_children()):
            if isinstance(child, torch.nn.Linear):
                setattr(module, child_name, lora_cls(child, rank, alpha, dropout))
                names.append(f"{name}.{child_name}")
    return names


def merged_deltas(tensors: dict[str, np.ndarray], alpha: float, rank: int) -> dict[str, np.ndarray]:
    """``{layer name: scale * B @ A}`` from saved ``<name>.lora_A`` / ``<name>.lora_B`` arrays.

    >>> a = np.ones((2, 3), dtype=np.float32); b = np.ones((4, 2), dtype=np.float32)
    >>> merged_deltas({"x.lora_A": a, "x.lora_B": b}, alpha=2.0, rank=2)["x"].tolist()[0]
    [2.0, 2.0, 2.0]
    """
    scale = alpha / rank
    out = {}
    for key, a in tensors.items():
        if key.endswith(".lora_A"):
            name = key[: -len(".lora_A")]
            b = tensors[name + ".lora_B"]
            out[name] = (scale * (b @ a)).astype(np.float32)
    return out
