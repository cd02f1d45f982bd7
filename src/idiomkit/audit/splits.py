"""Seeded 5-fold cross-validation splits at 70/10/20, random or lexical (Boisson et al., §3.3).

The examples are cut into ten chunks of (about) equal size; fold ``k`` tests on chunks ``2k`` and
``2k+1`` (20%), selects on chunk ``2k+2`` (10%) and trains on the other seven (70%), so every
example is tested exactly once over the five folds. In a *random* split the chunks are a seeded
shuffle of the examples; in a *lexical* split whole expressions (normalised: case, hyphens,
spaces) are dealt to the chunks, largest first, each to the chunk with the fewest examples, so no
expression occurs in two chunks and therefore never in both train and test
(:func:`check_expression_disjoint` proves it for a fold).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..datasets import Example
from ..errors import ConfigError, DataError
from .checks import normalize_expression

FOLDS = 5
CHUNKS = 10
MODES = ("random", "lexical")


@dataclass(frozen=True)
class Fold:
    """Indices (into the examples the folds were made from) of one fold's train, dev and test."""

    index: int
    train: tuple[int, ...]
    dev: tuple[int, ...]
    test: tuple[int, ...]


def _random_chunks(n: int, rng: np.random.Generator) -> list[list[int]]:
    order = rng.permutation(n).tolist()
    return [order[c::CHUNKS] for c in range(CHUNKS)]


def _lexical_chunks(examples: Sequence[Example], rng: np.random.Generator) -> list[list[int]]:
    groups: dict[str, list[int]] = defaultdict(list)
    for i, example in enumerate(examples):
        groups[normalize_expression(example.idiom)].append(i)
    if len(groups) < CHUNKS:
        raise DataError(
            "E365",
            f"A lexical split needs at least {CHUNKS} distinct expressions (one per chunk of "
            f"a 5-fold 70/10/20 split); these examples have {len(groups)}. Use the random "
            "split, or add examples of other expressions.",
        )
    keys = sorted(groups)
    # a seeded shuffle breaks ties between expressions of the same size
    keys = [keys[i] for i in rng.permutation(len(keys))]
    keys.sort(key=lambda k: -len(groups[k]))
    chunks: list[list[int]] = [[] for _ in range(CHUNKS)]
    for key in keys:
        lightest = min(range(CHUNKS), key=lambda c: (len(chunks[c]), c))
        chunks[lightest].extend(groups[key])
    return chunks


def cv_folds(examples: Sequence[Example], mode: str = "random", seed: int = 0) -> list[Fold]:
    """The five folds of a ``mode`` ("random" or "lexical") split of ``examples``.

    >>> ex = [Example(str(i), "s", idiom=f"e{i % 20}", label="literal") for i in range(60)]
    >>> folds = cv_folds(ex, "lexical", seed=1)
    >>> [(len(f.train), len(f.dev), len(f.test)) for f in folds][0]
    (42, 6, 12)
    >>> all(check_expression_disjoint(ex, f) == 0 for f in folds)
    True
    """
    if mode not in MODES:
        raise ConfigError(
            "E476", f"Unknown split mode '{mode}'. Available: {', '.join(MODES)}."
        )
    if len(examples) < CHUNKS:
        raise DataError(
            "E366",
            f"Cross-validation at 70/10/20 needs at least {CHUNKS} examples; got "
            f"{len(examples)}. Add examples or audit the original split only.",
        )
    rng = np.random.default_rng(seed)
    chunks = (
        _random_chunks(len(examples), rng) if mode == "random"
        else _lexical_chunks(examples, rng)
    )
    folds = []
    for k in range(FOLDS):
        test_chunks = {2 * k, 2 * k + 1}
        dev_chunk = (2 * k + 2) % CHUNKS
        folds.append(Fold(
            index=k,
            train=tuple(sorted(i for c in range(CHUNKS) if c not in test_chunks | {dev_chunk}
                               for i in chunks[c])),
            dev=tuple(sorted(chunks[dev_chunk])),
            test=tuple(sorted(i for c in sorted(test_chunks) for i in chunks[c])),
        ))
    return folds


def check_expression_disjoint(examples: Sequence[Example], fold: Fold) -> int:
    """How many test examples of ``fold`` have an expression that also occurs in its train or
    dev part (0 for every fold of a lexical split)."""
    seen = {normalize_expression(examples[i].idiom) for i in (*fold.train, *fold.dev)}
    return sum(normalize_expression(examples[i].idiom) in seen for i in fold.test)
