"""Rank and prune lexicon-match candidates with a small calibrated model.

A lexicon match says the words are there; it does not say that this is the idiom the text
means ("at work" and "find out" are SLIDE idioms that occur in many sentences as plain words).
:class:`CandidateScorer` turns generic, lexicon-independent features of a candidate (alignment
score, how many and how common its words are, whether it sits inside a longer candidate …)
into a probability that it is the idiom meant. Its weights are a logistic regression
calibrated on IDEM train (the ``card`` in ``data/finder_scorer.json`` names the data and the
command that rebuilds it). No feature names a particular idiom; the one per-entry fact, how
often the entry matches in general text (:mod:`.general_text`), is counted outside IDEM, so the
scorer carries over to idioms that IDEM never saw.
"""

from __future__ import annotations

import json
import math
import operator
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from ..errors import ConfigError
from .general_text import general_rate
from .variants import AUXILIARIES, FUNCTION_WORDS

FEATURES = (
    "alignment_score", "n_words", "light_fraction", "all_light", "rarest_word", "mean_word",
    "has_definition", "inside_other", "contains_other", "overlaps_other", "n_inserted",
    "inverted", "log_candidates", "has_slot", "best_in_group", "span_tokens", "exact_words",
    "articles_match", "general_rate", "hyphens_agree",
)
#: very common verbs and words that make a phrase compositional more often than not
LIGHT_WORDS = FUNCTION_WORDS | AUXILIARIES | frozenset(
    {"go", "get", "make", "take", "come", "give", "know", "think", "look", "find", "say",
     "see", "want", "put", "keep", "let", "tell", "turn", "work", "time", "thing", "way",
     "day", "good", "right", "end", "set", "well", "i", "me", "it", "'d", "'ll", "'s",
     "used", "like", "better", "sure", "now", "all", "about"}
)
BUNDLED_SCORER = "finder_scorer.json"


@dataclass
class LexiconStats:
    """Per-lexicon facts the features need: how many idioms use each word, definitions,
    hyphens, and each entry's ``general_rate`` (:mod:`.general_text`)."""

    word_idioms: dict[str, int]
    has_definition: list[bool]
    hyphenated: list[bool]
    general: list[float]
    #: :func:`_word_features` per pattern (by ``id``: patterns live as long as these stats)
    word_features: dict[int, tuple] = field(default_factory=dict, repr=False)


def candidate_features(
    cands: Sequence, stats: LexiconStats, norms: Sequence[str], tokens: Sequence, text: str
) -> list[list[float]]:
    """One feature row per candidate (order of :data:`FEATURES`), given its neighbours, the
    text, its tokens and their normalised forms."""
    rows = []
    n = len(cands)
    for cand in cands:
        n_words, *word_features = _word_features(cand.pattern, stats)
        inside = contains = overlaps = 0.0
        best = 1.0
        for other in cands:
            if other is cand or other.hi < cand.lo or other.lo > cand.hi:
                continue
            if other.score > cand.score:
                best = 0.0
            mine, theirs = set(cand.positions), set(other.positions)
            n_other = len(other.pattern.keyset)
            if mine < theirs or (mine == theirs and n_words < n_other):
                inside = 1.0
            elif theirs < mine or (mine == theirs and n_words > n_other):
                contains = 1.0
            else:
                overlaps = 1.0
        entry = cand.pattern.entry_index
        rows.append([
            cand.score, *word_features,
            float(stats.has_definition[entry]), inside, contains, overlaps,
            float(min(cand.n_inserted, 5)), float(cand.n_inversions > 0), math.log(n),
            float(cand.pattern.n_slots > 0), best, float(min(cand.hi - cand.lo + 1, 10)),
            _exact_words(cand, norms), _articles_match(cand, norms), stats.general[entry],
            float(stats.hyphenated[entry] == _hyphenated(cand, tokens, text)),
        ])
    return rows


def _word_features(pattern, stats: LexiconStats) -> tuple:
    """The idiom's number of distinct words, then the features that depend on its words alone
    (``n_words`` … ``mean_word``), counted once per pattern: ranking is the hot path."""
    cached = stats.word_features.get(id(pattern))
    if cached is None:
        words = set(pattern.required)
        counts = [stats.word_idioms.get(w, 1) for w in words]
        light = sum(w in LIGHT_WORDS for w in words) / len(words)
        cached = (len(words), float(min(len(words), 5)), light, float(light == 1.0),
                  math.log1p(min(counts)), sum(map(math.log1p, counts)) / len(counts))
        stats.word_features[id(pattern)] = cached
    return cached


def _hyphenated(cand, tokens: Sequence, text: str) -> bool:
    """Whether a hyphen joins two of the matched words in the text ("a hand-to-mouth life"
    is the entry "hand-to-mouth" rather than "hand to mouth")."""
    positions = sorted(cand.positions)
    return any(
        q == p + 1 and text[tokens[p].end:tokens[q].start] == "-"
        for p, q in zip(positions, positions[1:])
    )


def _exact_words(cand, norms: Sequence[str]) -> float:
    """Share of the idiom's words written exactly as in the dictionary form ("big boy" vs
    "big boys" for the text "a big boy")."""
    same = sum(norms[p] == key for p, key in zip(cand.positions, cand.pattern.required))
    return same / len(cand.positions)


def _articles_match(cand, norms: Sequence[str]) -> float:
    """1 when the idiom's articles appear as written in or just before the match ("draw the
    line" vs "draw a line"), 0.5 when the idiom has none."""
    articles = [key for kind, key in cand.pattern.items if kind == "art"]
    if not articles:
        return 0.5
    window = set(norms[max(0, cand.lo - 1):cand.hi + 1])
    return float(all(a in window for a in articles))


class CandidateScorer:
    """Logistic regression over standardised :data:`FEATURES` (weights in a JSON file)."""

    def __init__(self, params: dict) -> None:
        if tuple(params.get("features", ())) != FEATURES:
            raise ConfigError(
                "E406", "The candidate scorer file was made for other features; rebuild it with "
                "`idiomkit lexicon calibrate`."
            )
        self.params = params
        self.mean = params["mean"]
        self.scale = params["scale"]
        self.coef = params["coef"]
        self.intercept = params["intercept"]
        self.min_confidence = params["min_confidence"]
        # files calibrated before the floor existed keep every sentence's best candidate
        self.floor = params.get("floor", 0.0)
        general = params["general_text"]
        self.general_counts: dict[str, int] = general["counts"]
        self.general_sentences: int = general["sentences"]
        # standardising folded into the weights: z = b + sum(w / s * x) - sum(w * m / s)
        self._weights = [w / s for w, s in zip(self.coef, self.scale)]
        self._bias = self.intercept - sum(w * m for w, m in zip(self._weights, self.mean))

    @classmethod
    def load(cls, path: str | Path | None = None) -> CandidateScorer:
        path = Path(path) if path else Path(
            str(resources.files("idiomkit.detect") / "data" / BUNDLED_SCORER)
        )
        if not path.is_file():
            raise ConfigError(
                "E407", f"Candidate scorer file '{path}' does not exist; rebuild it with "
                "`idiomkit lexicon calibrate` or pass scorer=None."
            )
        with open(path, encoding="utf-8") as handle:
            return cls(json.load(handle))

    def general_rates(self, idioms: Sequence[str]) -> list[float]:
        """``general_rate`` of each idiom (0 for one the general text never matched)."""
        counts, n = self.general_counts, self.general_sentences
        return [general_rate(counts.get(idiom.lower(), 0), n) for idiom in idioms]

    def predict(self, rows: Sequence[Sequence[float]]) -> list[float]:
        weights, bias, exp, mul = self._weights, self._bias, math.exp, operator.mul
        return [1.0 / (1.0 + exp(-(bias + sum(map(mul, weights, row))))) for row in rows]
