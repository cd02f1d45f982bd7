"""A multinomial logistic-regression head over fixed features, trained with full-batch L-BFGS.

Training is deterministic (no sampling; same data, same weights), takes seconds on a CPU for
IDEM's 8,729 sentences, and the result is two arrays that save as safetensors. Features are
standardised during training and the scaling is folded back into the weights, so prediction
is one matrix product on raw features.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import ConfigError


@dataclass
class LinearHead:
    """``logits = features @ weight.T + bias``; ``weight`` is (classes, features)."""

    weight: np.ndarray
    bias: np.ndarray

    def logits(self, features: np.ndarray) -> np.ndarray:
        return features @ self.weight.T + self.bias

    def proba(self, features: np.ndarray) -> np.ndarray:
        return softmax(self.logits(features))


def softmax(logits: np.ndarray) -> np.ndarray:
    """Row-wise softmax, stable for large logits.

    >>> softmax(np.array([[0.0, 0.0], [1000.0, 0.0]])).round(3).tolist()
    [[0.5, 0.5], [1.0, 0.0]]
    """
    shifted = logits - logits.max(axis=1, keepdims=True)
    exp = np.exp(shifted)
    return exp / exp.sum(axis=1, keepdims=True)


def balanced_weights(labels: np.ndarray, n_classes: int) -> np.ndarray:
    """Per-class weights n / (classes_present * count), as scikit-learn's "balanced"; 0 for a
    class with no example.

    >>> balanced_weights(np.array([0, 0, 0, 1]), 3).tolist()
    [0.6666666666666666, 2.0, 0.0]
    """
    counts = np.bincount(labels, minlength=n_classes).astype(np.float64)
    present = int((counts > 0).sum())
    with np.errstate(divide="ignore"):
        weights = np.where(counts > 0, len(labels) / (present * counts), 0.0)
    return weights


def fit_linear_head(features: np.ndarray, labels: np.ndarray, n_classes: int, *,
                    l2: float = 1e-3, class_weight: str | None = None, max_iter: int = 200,
                    threads: int | None = None) -> LinearHead:
    """Minimise mean (optionally class-weighted) cross-entropy + ``l2``/2 * |W|^2 on
    standardised features; returns the head in raw-feature space."""
    if class_weight not in (None, "balanced"):
        raise ConfigError("E454", f"The 'class_weight' parameter must be None or 'balanced'. "
                          f"Got {class_weight!r}.")
    if len(features) != len(labels) or not len(features):
        raise ConfigError("E455", f"Training a head needs as many labels as feature rows (and "
                          f"at least one). Got {len(features)} rows and {len(labels)} labels.")
    from ..models.encoder import import_torch

    torch, _ = import_torch()
    if threads is not None:
        torch.set_num_threads(threads)
    mean = features.mean(axis=0)
    scale = features.std(axis=0) + 1e-6
    x = torch.from_numpy(((features - mean) / scale).astype(np.float64))
    y = torch.from_numpy(np.asarray(labels, dtype=np.int64))
    weights = None
    if class_weight == "balanced":
        weights = torch.from_numpy(balanced_weights(np.asarray(labels), n_classes))
    weight = torch.zeros((n_classes, features.shape[1]), dtype=torch.float64, requires_grad=True)
    bias = torch.zeros(n_classes, dtype=torch.float64, requires_grad=True)
    optimizer = torch.optim.LBFGS([weight, bias], max_iter=max_iter, history_size=20,
                                  tolerance_grad=1e-6, line_search_fn="strong_wolfe")

    def closure():
        optimizer.zero_grad()
        loss = torch.nn.functional.cross_entropy(x @ weight.T + bias, y, weight=weights)
        loss = loss + 0.5 * l2 * (weight * weight).sum()
        loss.backward()
        return loss

    optimizer.step(closure)
    w = weight.detach().numpy() / scale
    b = bias.detach().numpy() - w @ mean
    return LinearHead(w.astype(np.float32), b.astype(np.float32))
