"""Saved models: a folder with ``model.safetensors`` (small: adapters and a head over a packaged
base encoder), ``card.json`` and ``README.md``.

Weights are read with ``safetensors`` only, never unpickled: a folder that holds only a pickle
(``*.bin``, ``*.pt``, ``*.pkl``) is refused. Problems come back as coded errors that say what to
do: E610 unknown model, E611 corrupted weights, E612 wrong shapes, E613 bad card, E614 pickle.

Where trained models live: a local folder given by path; the models shipped inside the package
(``idiomkit/classify/trained/<name>/``); models trained with ``idiomkit train`` into the cache
(``$IDIOMKIT_CACHE/classifiers/<name>/``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import ModelError
from .cards import CARD_FILE, write_card
from .resolve import cache_dir

WEIGHTS_FILE = "model.safetensors"
_PICKLES = ("*.bin", "*.pt", "*.pth", "*.pkl", "*.pickle", "*.ckpt")
SHIPPED_DIR = Path(__file__).resolve().parents[1] / "classify" / "trained"


def user_models_dir() -> Path:
    """Where ``idiomkit train`` saves models by default."""
    return cache_dir() / "classifiers"


def saved_models(root: Path) -> dict[str, Path]:
    """The model folders (those with a card) directly under ``root``, by name."""
    if not root.is_dir():
        return {}
    return {p.name: p for p in sorted(root.iterdir()) if (p / CARD_FILE).exists()}


def find_saved(name: str | Path, roots: Sequence[Path], *, code: str, what: str,
               hint: str) -> Path:
    """``name`` as a folder, else the model of that name in the first of ``roots`` holding
    one; otherwise a :class:`ModelError` ``code`` naming the ``what`` asked for, the models
    there are, and ``hint`` (how to make one)."""
    path = Path(name).expanduser()
    if path.is_dir():
        return path
    for root in roots:
        found = saved_models(root).get(str(name))
        if found is not None:
            return found
    known = sorted({model for root in roots for model in saved_models(root)})
    raise ModelError(
        code, f"Unknown {what} {str(name)!r}: give a folder (with {WEIGHTS_FILE} and "
        f"{CARD_FILE}) or one of: {', '.join(known) or 'none installed'}. {hint}")


def shipped_models() -> dict[str, Path]:
    """Trained models shipped in the package, by name."""
    return saved_models(SHIPPED_DIR)


def user_models() -> dict[str, Path]:
    """Models in :func:`user_models_dir`, by name."""
    return saved_models(user_models_dir())


def resolve_artifact(name: str | Path) -> Path:
    """A trained model's folder: a path, a shipped model's name, or a user model's name."""
    return find_saved(name, (SHIPPED_DIR, user_models_dir()), code="E610",
                      what="trained model", hint="`idiomkit models list` shows them; "
                      "`idiomkit train figurative` makes one.")


def save_artifact(directory: str | Path, tensors: Mapping[str, np.ndarray],
                  card: dict[str, Any]) -> Path:
    """Write the weights (safetensors) and the card into ``directory`` (created)."""
    from safetensors.numpy import save_file

    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    save_file({k: np.ascontiguousarray(v) for k, v in tensors.items()},
              str(directory / WEIGHTS_FILE))
    write_card(directory, card)
    return directory


def load_card(directory: str | Path) -> dict[str, Any]:
    """The card of the model in ``directory``."""
    path = Path(directory) / CARD_FILE
    try:
        card = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ModelError("E613", f"{directory} has no {CARD_FILE}: it is not a trained idiomkit "
                         "model. Give the folder `idiomkit train` wrote.") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ModelError("E613", f"{path} is not valid JSON ({exc}); restore it or retrain "
                         "with the command in the model's README.md.") from None
    if not isinstance(card, dict) or "config" not in card:
        raise ModelError("E613", f"{path} has no 'config'; restore it or retrain.")
    return card


def load_artifact(directory: str | Path) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """``(tensors, card)`` of a saved model, read without unpickling anything."""
    directory = resolve_artifact(directory)
    card = load_card(directory)
    weights = directory / WEIGHTS_FILE
    if not weights.exists():
        pickles = [p.name for pattern in _PICKLES for p in directory.glob(pattern)]
        if pickles:
            raise ModelError("E614", f"{directory} holds {', '.join(pickles)} but no "
                             f"{WEIGHTS_FILE}. idiomkit never unpickles weights (a pickle can "
                             "run code): convert them to safetensors or retrain.")
        raise ModelError("E611", f"{directory} has no {WEIGHTS_FILE}; retrain with the command "
                         "in its README.md.")
    from safetensors import SafetensorError
    from safetensors.numpy import load_file

    try:
        tensors = load_file(str(weights))
    except (SafetensorError, OSError, ValueError) as exc:
        raise ModelError("E611", f"The weights file {weights} is corrupted or not safetensors "
                         f"({exc}). Restore it or retrain with the command in its README.md."
                         ) from None
    return tensors, card


def check_shapes(tensors: Mapping[str, np.ndarray], expected: Mapping[str, tuple[int, ...]],
                 where: str) -> None:
    """Raise E612 unless ``tensors`` has exactly ``expected``'s names and shapes.

    >>> check_shapes({"w": np.zeros((2, 3))}, {"w": (2, 3)}, "m")
    >>> check_shapes({"w": np.zeros((3, 2))}, {"w": (2, 3)}, "m")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    idiomkit.errors.ModelError: [E612] ... w has shape (3, 2), expected (2, 3). ...
    """
    problems = []
    for name, shape in expected.items():
        if name not in tensors:
            problems.append(f"{name} is missing")
        elif tuple(tensors[name].shape) != tuple(shape):
            problems.append(f"{name} has shape {tuple(tensors[name].shape)}, expected "
                            f"{tuple(shape)}")
    extra = sorted(set(tensors) - set(expected))
    if extra:
        problems.append(f"unexpected tensors {', '.join(extra[:3])}")
    if problems:
        raise ModelError("E612", f"The weights in {where} do not fit the model its card "
                         f"describes: {'; '.join(problems[:3])}. Retrain, or give the base "
                         "encoder it was trained on.")
