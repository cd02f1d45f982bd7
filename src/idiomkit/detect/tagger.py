"""A neural span tagger: idioms the lexicon does not list.

The lexicon matcher only finds what the bundled lexicon holds, and SLIDE lacks many everyday
idioms ("a blast from the past", "poor as a church mouse", "kill time"). The tagger reads the
sentence through the first layers of the packaged MiniLM (the same states the figurative
classifier reads) and gives each token P(part of an idiom used figuratively); a one-hidden-layer
head over ``[token state; sentence mean]`` is all that is trained. It learned from the
idiomatic *and literal* sentences of Labelled EPIE and PIE-English (train splits), so a
literal use ("she kicked the bucket of water over") is not tagged.

Spans are read off the token probabilities by :func:`decode_spans`: runs of tokens at or above
``token_threshold`` (a gap of one token inside a run is bridged), widened to whole words, scored
by their highest token probability and kept at or above ``threshold`` when they have at least
``min_words`` words.

The tagger finds the idioms of its training sentences best. Trained with a fifth of the idiom
types left out (``idiomkit train tagger --hold-out-types 0.2``), it still finds 57% of the dev
sentences of those types, against 73% of all dev sentences. ``analyze`` adds its spans
where they do not overlap a lexicon candidate (:class:`~idiomkit.pipeline.Analyzer`).

>>> tagger = SpanTagger.load()                                        # doctest: +SKIP
>>> tagger.tag(["Going back there was like a blast from the past."])   # doctest: +SKIP
[[TaggedSpan(start=21, end=47, score=0.99...)]]
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import check_param
from ..models.cards import CardConfig
from ..text.pieces import pieces

SHIPPED_DIR = Path(__file__).resolve().parent / "trained"
DEFAULT_TAGGER = "default"
HEAD_KEYS = ("head.hidden.weight", "head.hidden.bias", "head.weight", "head.bias")
_WORD_CHAR = re.compile(r"[\w'’-]")
_WORDS = re.compile(r"\w+")


@dataclass
class TaggerConfig(CardConfig):
    """What a saved tagger needs to run: base encoder, layers kept, head size, thresholds."""

    base: str = "minilm"
    num_layers: int = 3
    max_length: int = 96
    head_hidden: int = 256
    #: a token belongs to a span at this probability
    token_threshold: float = 0.5
    #: a span is kept when its best token reaches this probability
    threshold: float = 0.95
    #: and when it has this many words (single tagged words are mostly noise: "hat", "long")
    min_words: int = 2

    def check(self) -> None:
        for name in ("token_threshold", "threshold"):
            value = getattr(self, name)
            check_param("TaggerConfig", name, value,
                        isinstance(value, (int, float)) and 0 <= value <= 1, "a float in [0, 1]")
        for name in ("num_layers", "max_length", "head_hidden", "min_words"):
            value = getattr(self, name)
            check_param("TaggerConfig", name, value, isinstance(value, int) and value >= 1,
                        "an integer >= 1")


@dataclass(frozen=True)
class TaggedSpan:
    """Character offsets of a tagged idiom and its score (its best token's probability)."""

    start: int
    end: int
    score: float


def token_features(states: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """``[rows, tokens, 2 * hidden]``: each token's state beside its sentence's mean state."""
    mean = (states * mask[..., None]).sum(1) / np.maximum(mask.sum(1, keepdims=True), 1.0)
    return np.concatenate([states, np.broadcast_to(mean[:, None, :], states.shape)], axis=-1)


def apply_token_head(head: dict[str, np.ndarray], feats: np.ndarray) -> np.ndarray:
    """P(in an idiom) for each row of ``feats`` (``[..., features]``)."""
    hidden = np.maximum(feats @ head["head.hidden.weight"].T + head["head.hidden.bias"], 0.0)
    logits = (hidden @ head["head.weight"].T + head["head.bias"])[..., 0]
    return 1.0 / (1.0 + np.exp(-logits))


def _widen(text: str, start: int, end: int) -> tuple[int, int]:
    """``[start, end)`` grown to whole words (a subword token ends inside its word)."""
    while start > 0 and _WORD_CHAR.match(text[start - 1]) and _WORD_CHAR.match(text[start]):
        start -= 1
    while end < len(text) and _WORD_CHAR.match(text[end]) and _WORD_CHAR.match(text[end - 1]):
        end += 1
    return start, end


def decode_spans(text: str, offsets: Sequence[tuple[int, int]], probs: Sequence[float], *,
                 token_threshold: float = 0.5, threshold: float = 0.95,
                 min_words: int = 1, max_gap: int = 1) -> list[TaggedSpan]:
    """Spans from per-token probabilities (module docstring), of ``min_words`` words or more;
    special tokens have empty offsets and are skipped.

    >>> text = "He was on cloud nine all week."
    >>> offsets = [(0, 0), (0, 2), (3, 6), (7, 9), (10, 15), (16, 20), (21, 24), (25, 29),
    ...            (29, 30), (0, 0)]
    >>> decode_spans(text, offsets, [0, .1, .2, .99, .6, .98, .1, .1, 0, 0])
    [TaggedSpan(start=7, end=20, score=0.99)]
    >>> decode_spans(text, offsets, [0, .1, .2, .9, .6, .8, .1, .1, 0, 0])
    []
    >>> decode_spans(text, offsets, [0, .1, .2, .1, .1, .1, .1, .99, 0, 0], min_words=2)
    []
    """
    words = [(i, a, b) for i, (a, b) in enumerate(offsets) if b > a]
    runs: list[list[int]] = []
    last = -10
    for position, (i, _, _) in enumerate(words):
        if probs[i] < token_threshold:
            continue
        if runs and position - last <= max_gap + 1:
            runs[-1].extend(range(last + 1, position + 1))
        else:
            runs.append([position])
        last = position
    spans = []
    for run in runs:
        score = max(float(probs[words[p][0]]) for p in run)
        if score < threshold:
            continue
        start, end = _widen(text, words[run[0]][1], words[run[-1]][2])
        if len(_WORDS.findall(text, start, end)) < min_words:
            continue
        spans.append(TaggedSpan(start, end, round(score, 6)))
    return spans


def tagger_roots() -> dict[str, Path]:
    """Where saved taggers live: ``shipped`` in the package, ``user`` in the idiomkit cache."""
    from ..models.resolve import cache_dir

    return {"shipped": SHIPPED_DIR, "user": cache_dir() / "taggers"}


def resolve_tagger(name: str | Path = DEFAULT_TAGGER) -> Path:
    """A tagger folder: a path, a shipped tagger's name, or one under the idiomkit cache."""
    from ..models.artifacts import find_saved

    return find_saved(name, list(tagger_roots().values()), code="E617", what="span tagger",
                      hint="`idiomkit train tagger` makes one; `--tagger none` analyses with "
                      "the lexicon alone.")


class SpanTagger:
    """Token probabilities and spans of idioms, over a NumPy run of the packaged encoder."""

    def __init__(self, config: TaggerConfig, runtime, head: dict[str, np.ndarray],
                 card: dict[str, Any] | None = None) -> None:
        from ..classify.encoding import load_tokenizer
        from ..models.resolve import resolve_model_path

        config.check()
        self.config = config
        self.tokenizer = load_tokenizer(resolve_model_path(config.base), config.max_length)
        self.runtime = runtime
        self.head = {k: np.asarray(v, dtype=np.float32) for k, v in head.items()}
        self.card = card or {}
        self.name = self.card.get("name", DEFAULT_TAGGER)

    @classmethod
    def load(cls, name: str | Path = DEFAULT_TAGGER) -> SpanTagger:
        """Load a saved tagger (folder, shipped name or cache name)."""
        from ..models.artifacts import check_shapes, load_artifact
        from ..models.resolve import resolve_model_path
        from ..models.runtime import NumpyRuntime

        tensors, card = load_artifact(resolve_tagger(name))
        config = TaggerConfig.from_dict(card.get("config", {}))
        config.check()
        runtime = NumpyRuntime(resolve_model_path(config.base), config.num_layers)
        features = 2 * runtime.hidden
        check_shapes(tensors, {"head.hidden.weight": (config.head_hidden, features),
                               "head.hidden.bias": (config.head_hidden,),
                               "head.weight": (1, config.head_hidden), "head.bias": (1,)},
                     str(name))
        return cls(config, runtime, tensors, card)

    def encode(self, texts: Sequence[str]) -> list[Any]:
        """The tokenizer's encodings (ids and character offsets) of ``texts``."""
        return self.tokenizer.encode_batch(list(texts))

    def features(self, texts: Sequence[str], *, batch_size: int = 32, dtype=np.float32
                 ) -> tuple[list[np.ndarray], list[list[tuple[int, int]]]]:
        """Per text, the ``[tokens, 2 * hidden]`` features the head reads (:func:`token_features`)
        and the tokens' character offsets."""
        from ..classify.encoding import Encoded, length_batches, pad

        encodings = self.encode(texts)
        rows = [Encoded(np.asarray(e.ids, dtype=np.int64), np.asarray(e.type_ids, dtype=np.int64),
                        ()) for e in encodings]
        feats: list[Any] = [None] * len(texts)
        for batch in length_batches([len(r) for r in rows], batch_size):
            ids, types, mask = pad([rows[i] for i in batch])
            block = token_features(self.runtime.states(ids, types, mask), mask)
            for row, i in enumerate(batch):
                feats[i] = block[row, :len(rows[i])].astype(dtype, copy=False)
        return feats, [list(e.offsets) for e in encodings]

    def token_probs(self, texts: Sequence[str], *, batch_size: int = 32
                    ) -> list[tuple[list[tuple[int, int]], np.ndarray]]:
        """``(token offsets, P(in an idiom) per token)`` for each text, in order."""
        feats, offsets = self.features(texts, batch_size=batch_size)
        return [(offs, apply_token_head(self.head, f)) for f, offs in zip(feats, offsets)]

    def tag(self, texts: Sequence[str], *, batch_size: int = 32) -> list[list[TaggedSpan]]:
        """The idiom spans of each text (see :func:`decode_spans`). A text longer than the
        encoder's window is read in pieces of whole sentences
        (:func:`~idiomkit.text.pieces.pieces`)."""
        config = self.config
        parts = [(i, start, piece) for i, text in enumerate(texts)
                 for start, piece in pieces(text, self.config.max_length)]
        probs = self.token_probs([piece for _, _, piece in parts], batch_size=batch_size)
        out: list[list[TaggedSpan]] = [[] for _ in texts]
        for (i, start, piece), (offsets, p) in zip(parts, probs):
            out[i] += [TaggedSpan(s.start + start, s.end + start, s.score) for s in decode_spans(
                piece, offsets, p, token_threshold=config.token_threshold,
                threshold=config.threshold, min_words=config.min_words)]
        return out
