"""A seeded training loop, shared by every trained stage: CPU by default, a GPU when asked.

What it guarantees: the same seed and thread count give the same updates on CPU (torch, NumPy
and Python RNGs seeded; batch order drawn from a seeded generator); ``torch.set_num_threads`` is
set from the config; batches are padded per batch (the caller's ``batches`` function builds
them); early stopping keeps the trainable weights of the best dev score and restores them.
With ``device="cuda"`` (or ``"auto"`` on a machine with one) the model and each batch move to
the GPU; GPU kernels are not bit-reproducible, so metrics there agree only closely.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import check_param
from .cards import CardConfig
from .encoder import import_torch


@dataclass
class TrainConfig(CardConfig):
    """Optimisation settings (AdamW with linear warm-up and decay)."""

    epochs: int = 4
    batch_size: int = 16
    lr: float = 1e-3
    weight_decay: float = 0.01
    warmup: float = 0.1
    #: stop after this many evaluations without a better dev score
    patience: int = 2
    #: dev evaluations per epoch
    evals_per_epoch: int = 1
    seed: int = 0
    threads: int = 2
    #: ``cpu``, ``cuda`` (``cuda:N``) or ``auto`` (a GPU when torch sees one)
    device: str = "cpu"

    def check(self) -> None:
        for name in ("epochs", "batch_size", "patience", "evals_per_epoch", "threads"):
            value = getattr(self, name)
            check_param("TrainConfig", name, value, isinstance(value, int) and value >= 1,
                        "an integer >= 1")
        check_param("TrainConfig", "lr", self.lr, self.lr > 0, "a float > 0")


def resolve_device(name: str):
    """The ``torch.device`` for ``cpu``, ``cuda``/``cuda:N`` or ``auto``; a coded error when
    a GPU is asked for and torch sees none."""
    from ..errors import ConfigError

    torch, _ = import_torch()
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if name != "cpu" and not name.startswith("cuda"):
        raise ConfigError("E604", f"Unknown device '{name}': use cpu, cuda (cuda:N) or auto.")
    if name.startswith("cuda") and not torch.cuda.is_available():
        raise ConfigError("E605", f"Device '{name}' asked for, but torch sees no GPU (the "
                          "packaged torch is the CPU build). Train with --device cpu, or "
                          "install a CUDA build of torch on a machine with a GPU.")
    return torch.device(name)


def to_device(value, device):
    """``value`` (a tensor, or a dict of tensors) on ``device``."""
    if isinstance(value, dict):
        return {k: v.to(device) for k, v in value.items()}
    return value.to(device)



@dataclass
class FitResult:
    """The best dev score, when it was reached, and every evaluation on the way."""

    best_score: float
    best_step: int
    best_epoch: float
    history: list[dict[str, Any]] = field(default_factory=list)
    seconds: float = 0.0


def seed_everything(seed: int, threads: int) -> None:
    """Seed Python, NumPy and torch, and fix torch's thread count (results depend on it)."""
    torch, _ = import_torch()
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    torch.set_num_threads(threads)


def load_encoder(path: str | Path, num_layers: int | None = None):
    """A Hugging Face encoder from ``path`` keeping its first ``num_layers`` layers.

    BERT-type encoders use the tanh approximation of GELU, as the NumPy runtime does
    (:mod:`idiomkit.models.npbert`), so that a trained model gives the same scores in both.
    """
    _, transformers = import_torch()
    config = transformers.AutoConfig.from_pretrained(str(path))
    if config.model_type == "bert":
        config.hidden_act = "gelu_pytorch_tanh"
    total = config.num_hidden_layers
    keep = total if num_layers is None else num_layers
    check_param("load_encoder", "num_layers", num_layers, 1 <= keep <= total,
                f"an integer in [1, {total}] for this encoder")
    model = transformers.AutoModel.from_pretrained(str(path), config=config,
                                                   add_pooling_layer=False) \
        if config.model_type == "bert" else \
        transformers.AutoModel.from_pretrained(str(path), config=config)
    model.encoder.layer = model.encoder.layer[:keep]
    model.config.num_hidden_layers = keep
    return model


def fit(model, batches: Callable[[np.random.Generator], Iterable[tuple[dict, Any]]],
        loss_fn: Callable[[Any, Any], Any], evaluate: Callable[[], float],
        config: TrainConfig, *, steps_per_epoch: int, progress: bool = True,
        log: Callable[[str], None] | None = None, eval_first: bool = False) -> FitResult:
    """Train ``model``'s trainable parameters; evaluate on dev; keep and restore the best.

    ``batches(rng)`` yields ``(inputs, labels)`` for one epoch, in an order drawn from ``rng``;
    ``loss_fn(model(**inputs), labels)`` is minimised; ``evaluate()`` returns a dev score
    (higher is better; the model is in eval mode while it runs). ``eval_first`` also scores the
    starting weights, so that continued training keeps them if no later weights beat them.
    """
    config.check()
    torch, _ = import_torch()
    seed_everything(config.seed, config.threads)
    device = resolve_device(config.device)
    if device.type == "cuda":  # TensorFloat-32 matrix products: several times faster there
        torch.set_float32_matmul_precision("high")
    model.to(device)
    log = log or (lambda message: print(message, file=sys.stderr, flush=True))
    params = [p for p in model.parameters() if p.requires_grad]
    decay = [p for p in params if p.ndim >= 2]
    no_decay = [p for p in params if p.ndim < 2]
    optimizer = torch.optim.AdamW(
        [{"params": decay, "weight_decay": config.weight_decay},
         {"params": no_decay, "weight_decay": 0.0}], lr=config.lr)
    total = max(1, steps_per_epoch * config.epochs)
    warmup = int(config.warmup * total)

    def factor(step: int) -> float:
        if step < warmup:
            return (step + 1) / max(1, warmup)
        return max(0.0, (total - step) / max(1, total - warmup))

    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, factor)
    rng = np.random.default_rng(config.seed)
    eval_every = max(1, steps_per_epoch // config.evals_per_epoch)
    result = FitResult(best_score=-1.0, best_step=0, best_epoch=0.0)
    best_state: dict[str, Any] | None = None
    start = time.perf_counter()
    step, stale, running = 0, 0, 0.0

    def trainable_state() -> dict[str, Any]:
        return {k: v.detach().clone() for k, v in model.named_parameters() if v.requires_grad}

    def run_eval() -> bool:
        nonlocal best_state, stale
        model.eval()
        with torch.inference_mode():
            score = float(evaluate())
        model.train()
        epoch = step / steps_per_epoch
        entry = {"step": step, "epoch": round(epoch, 3), "dev": score,
                 "train_loss": running / max(1, step), "seconds": time.perf_counter() - start}
        result.history.append(entry)
        if progress:
            log(f"  step {step} (epoch {epoch:.2f}): dev {score:.4f}, train loss "
                f"{entry['train_loss']:.4f}, {entry['seconds']:.0f}s")
        if score > result.best_score:
            result.best_score, result.best_step, result.best_epoch = score, step, epoch
            best_state = trainable_state()
            stale = 0
            return False
        stale += 1
        return stale >= config.patience

    if eval_first:
        run_eval()
    model.train()
    stop = False
    for _epoch in range(config.epochs):
        for inputs, labels in batches(rng):
            loss = loss_fn(model(**to_device(inputs, device)), to_device(labels, device))
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(params, 1.0)
            optimizer.step()
            scheduler.step()
            running += loss.item()
            step += 1
            if progress and step % 50 == 0:
                log(f"  step {step}/{total}: train loss {running / step:.4f}, "
                    f"{time.perf_counter() - start:.0f}s")
            if step % eval_every == 0 and run_eval():
                stop = True
                break
        if stop:
            break
    if not result.history or result.history[-1]["step"] != step:
        run_eval()
    if best_state is not None:
        with torch.no_grad():
            for name, param in model.named_parameters():
                if name in best_state:
                    param.copy_(best_state[name])
    model.eval()
    result.seconds = time.perf_counter() - start
    return result
