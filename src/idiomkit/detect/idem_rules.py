"""The IDEM authors' rule-based idiom finder, reproduced (method ``idem-rules``).

Prochnow et al., "IDEM: The IDioms with EMotions Dataset for Emotion Recognition"
(LREC-COLING 2024), section 5.1, released as ``code/idiom_finding/rule_based_finder.py`` in
github.com/AlexanderProchnow/idem. This module re-implements that finder so that it returns the
same idioms with the same scores; only the character spans and the ranking are additions.

How it works:

1. **Lemmatise** the sentence word by word (words = ``text.split()``). Per word: ``-`` becomes a
   space, ``[a-zA-Z]*self`` becomes ``self``, every character outside ``[0-9a-zA-Z ]`` is deleted,
   the rest is lower-cased and passed through WordNet's lemmatizer as a verb, noun, adjective,
   adverb and satellite adjective in turn (each output feeding the next); a final ``s`` is then
   dropped. The lemmatised words are joined by spaces and split again, so ``cross-purposes``
   (lemmatised as the single string ``"cross purposes"`` → ``"cross purpose"``) gives the two
   tokens ``cross purpose``.

   The released code ran on NLTK 3.8.1, whose ``WordNetLemmatizer`` kept applying the suffix
   rules until a WordNet lemma came out (``feelings`` → ``feeling`` → ``feel``); NLTK >= 3.9
   applies them once (``feelings`` → ``feelings``). :func:`wordnet_lemmatize` reproduces the
   3.8.1 behaviour on top of any NLTK 3.x WordNet reader (``legacy_morphy=True``, the default;
   ``False`` uses the installed NLTK's own lemmatizer).
2. **Lemmatise the idioms** once, as the authors' ``lemmatize_idioms.ipynb`` did when it wrote
   ``idiomLexicon_lemmatized.csv`` (:func:`lemmatize_idiom`): the slot words ``someone's``,
   ``someone`` and ``one's`` are removed from the idiom, hyphens become spaces, then each word
   is lemmatised as above (except that non-alphanumerics are deleted *before* the ``*self`` rule);
   ``also-ran`` is hard-coded as ``also ran``. With legacy lemmatisation this reproduces all
   5,000 rows of the released file. Kept quirk: idiom hyphen pieces are lemmatised one by one
   (``cross-purposes`` → ``cros purpose``) but sentence words whole (→ ``cross purpose``), so
   such idioms rarely match (16 of the 82 gold idioms missed on IDEM test). A ``lemmatized``
   mapping (idiom → form; see :func:`read_lemmatized_csv`) can supply the forms instead.
3. **Candidates**: idioms all of whose lemmatised words occur among the sentence's lemmatised
   words. An inverted index keyed on each idiom's rarest word finds them without looping over
   the lexicon; candidates are then visited in lexicon order, as in the released loop.
4. **Scores** (:func:`token_gap_score`, :func:`token_order_score`, :func:`f_beta`): an idiom
   is found when ``F_beta(tg, to) > threshold`` (beta = 1.2, threshold = 0.9). A one-word idiom
   has no bigram, so its order score is 0 and it is never found.

What is added on top of the released finder:

- **Spans.** Each lemmatised token is traced back to the whitespace word it came from (to the
  hyphen-separated piece, when a hyphenated word gives one token per piece), trimmed of
  surrounding punctuation. The matched occurrences are the *tightest group*: the shortest run of
  sentence tokens holding every idiom word as often as the idiom has it (capped at how often the
  sentence has it); among equally short runs, the one with the most idiom bigrams in order, then
  the leftmost. ``start``/``end`` run from its first to its last idiom token, ``token_offsets``
  list the pieces of its idiom tokens.
- **Ranking.** Spans are sorted by F-beta (descending), then by the number of lemmatised idiom
  words (more first); ties keep lexicon order. The released finder returned lexicon order.
- ``keep_nested`` is accepted for the common matcher interface and has no effect: like the
  released finder, every idiom above the threshold is returned, overlapping or not.
"""

from __future__ import annotations

import csv
import functools
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from ..document import Span
from ..errors import LexiconError, check_param
from ..lexicon import Lexicon
from ..lexicon.entry import SUPPLEMENT_SOURCE
from .base import register_matcher
from .wordnet_setup import ensure_wordnet

NAME = "idiomkit.idem_rules.v1"
T = TypeVar("T")
#: the paper's weight of the order score (section 5.1)
BETA = 1.2
#: an idiom is found when its F-beta score is above this (section 5.1)
THRESHOLD = 0.9

#: parts of speech the released code lemmatises every word as, in this order
POS_CHAIN = ("v", "n", "a", "r", "s")
#: idioms the authors' notebook lemmatised by hand
IDIOM_EXCEPTIONS = {"also-ran": "also ran"}
#: slot words the notebook removed from idioms before lemmatising, in this order
IDIOM_SLOTS = ("someone's", "someone", "one's")

_SELF_RE = re.compile(r"[a-zA-Z]*self")
_NON_ALNUM_SPACE_RE = re.compile(r"[^0-9a-zA-Z ]+")
_NON_ALNUM_RE = re.compile(r"[^0-9a-zA-Z]+")
_WORD_RE = re.compile(r"\S+")  # the same split as str.split() (same whitespace definition)


# -- lemmatisation ---------------------------------------------------------------------------


@functools.lru_cache(maxsize=1)
def _wordnet():
    ensure_wordnet()
    from nltk.corpus import wordnet

    return wordnet


def _morphy_legacy(form: str, pos: str) -> list[str]:
    """WordNet ``_morphy`` as in NLTK <= 3.8.1: when one round of suffix rules finds no lemma,
    keep applying the rules to the new forms until one does."""
    wn = _wordnet()
    exceptions = wn._exception_map[pos]
    substitutions = wn.MORPHOLOGICAL_SUBSTITUTIONS[pos]
    lemma_pos = wn._lemma_pos_offset_map

    def apply_rules(forms: list[str]) -> list[str]:
        return [
            f[: -len(old)] + new for f in forms for old, new in substitutions if f.endswith(old)
        ]

    def filter_forms(forms: list[str]) -> list[str]:
        result: list[str] = []
        for f in forms:
            if f in lemma_pos and pos in lemma_pos[f] and f not in result:
                result.append(f)
        return result

    if form in exceptions:
        return filter_forms([form] + exceptions[form])
    forms = apply_rules([form])
    results = filter_forms([form] + forms)
    if results:
        return results
    while forms:
        forms = apply_rules(forms)
        results = filter_forms(forms)
        if results:
            return results
    return []


@functools.lru_cache(maxsize=1)
def _nltk_lemmatizer():
    _wordnet()
    from nltk.stem import WordNetLemmatizer

    return WordNetLemmatizer()


def wordnet_lemmatize(word: str, pos: str, legacy_morphy: bool = True) -> str:
    """``WordNetLemmatizer().lemmatize(word, pos)``: the shortest WordNet lemma, else ``word``.

    ``legacy_morphy`` gives NLTK 3.8.1's result (the version the IDEM authors used), whatever
    NLTK is installed; ``False`` calls the installed NLTK.
    """
    if not legacy_morphy:
        return _nltk_lemmatizer().lemmatize(word, pos=pos)
    lemmas = _morphy_legacy(word, pos)
    return min(lemmas, key=len) if lemmas else word


def _lemma_chain(word: str, legacy_morphy: bool) -> str:
    for pos in POS_CHAIN:
        word = wordnet_lemmatize(word, pos, legacy_morphy)
    if not word:
        return ""
    return word[:-1] if word[-1] == "s" else word


@functools.lru_cache(maxsize=200_000)
def lemmatize_word(word: str, legacy_morphy: bool = True) -> str:
    """The released finder's lemma of one whitespace-separated sentence word.

    The result may hold spaces (hyphenated words) or be empty (punctuation only).

    >>> lemmatize_word("cross-purposes"), lemmatize_word("Yourself!"), lemmatize_word("--")
    ('cross purpose', 'self', '  ')
    """
    word = word.replace("-", " ")
    word = _SELF_RE.sub("self", word)
    word = _NON_ALNUM_SPACE_RE.sub("", word).lower()
    return _lemma_chain(word, legacy_morphy)


def lemmatize_sentence(text: str, legacy_morphy: bool = True) -> str:
    """The released finder's lemmatised sentence: word lemmas joined by single spaces.

    >>> lemmatize_sentence("He jotted it down in well-known notebooks.")
    'he jot it down in well known notebook'
    """
    return " ".join(lemmatize_word(word, legacy_morphy) for word in text.split())


def _lemmatize_idiom_word(word: str, legacy_morphy: bool) -> str:
    word = _NON_ALNUM_SPACE_RE.sub("", word)
    word = _SELF_RE.sub("self", word).lower()
    return _lemma_chain(word, legacy_morphy)


def lemmatize_idiom(idiom: str, legacy_morphy: bool = True) -> str:
    """The lemmatised idiom as in IDEM's ``idiomLexicon_lemmatized.csv`` (module docstring).

    >>> lemmatize_idiom("pour someone's heart out"), lemmatize_idiom("at cross-purposes")
    ('pour heart out', 'at cros purpose')
    """
    if idiom in IDIOM_EXCEPTIONS:
        return IDIOM_EXCEPTIONS[idiom]
    for slot in IDIOM_SLOTS:
        idiom = idiom.replace(slot, "")
    idiom = idiom.replace("-", " ")
    return " ".join(_lemmatize_idiom_word(word, legacy_morphy) for word in idiom.split())


def read_lemmatized_csv(path: str | Path) -> dict[str, str]:
    """Read IDEM's ``idiomLexicon_lemmatized.csv`` (``idiom;lemmatized``) as idiom → form."""
    path = Path(path)
    if not path.is_file():
        raise LexiconError("E209", f"Lemmatised idiom file '{path}' does not exist.")
    with open(path, encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle, delimiter=";")
        if not reader.fieldnames or not {"idiom", "lemmatized"} <= set(reader.fieldnames):
            raise LexiconError(
                "E209", f"{path}, line 1: expected the header 'idiom;lemmatized' "
                f"(found {reader.fieldnames})."
            )
        return {row["idiom"]: row["lemmatized"] or "" for row in reader}


# -- scores ----------------------------------------------------------------------------------


def _pairs(items: Sequence[T]) -> list[tuple[T, T]]:
    """Consecutive pairs: ``[a, b, c]`` → ``[(a, b), (b, c)]``."""
    items = list(items)
    return list(zip(items[:-1], items[1:], strict=True))


def token_gap_score(idiom_words: Sequence[str], sentence_words: Sequence[str]) -> float:
    """Token gap score ``tg``: 1 − (gaps between the idiom's words) / (non-idiom words).

    Walking the sentence, each idiom word records how many non-idiom words came since the
    previous idiom word. Consecutive recorded words that differ form a bigram carrying the gap
    of the second. Bigrams are taken smallest gap first while each of their words has been used
    fewer than twice its count in the idiom; the kept gaps are summed. A sentence with no
    non-idiom word scores 1.0.

    >>> token_gap_score(["quick", "fix"], "the break car be a quick fix for me".split())
    1.0
    >>> token_gap_score(["quick", "fix"], "quick i need someone for a fix".split())
    0.0
    >>> token_gap_score(["quick", "fix"], "quick i need a fix now".split())
    0.25
    """
    idiom_set = set(idiom_words)
    recorded: list[tuple[str, int]] = []
    gap = 0
    non_idiom = 0
    for word in sentence_words:
        if word in idiom_set:
            recorded.append((word, gap))
            gap = 0
        else:
            non_idiom += 1
            gap += 1
    bigrams = [
        (first, second_gap, second)
        for (first, _), (second, second_gap) in _pairs(recorded)
        if first != second
    ]
    bigrams.sort(key=lambda bigram: bigram[1])  # stable, as list.sort in the released code
    counts = Counter(idiom_words)
    used: dict[str, int] = {}
    total_gap = 0
    for first, bigram_gap, second in bigrams:
        used.setdefault(first, 0)
        used.setdefault(second, 0)
        if used[first] < 2 * counts[first] and used[second] < 2 * counts[second]:
            used[first] += 1
            used[second] += 1
            total_gap += bigram_gap
    if non_idiom == 0:
        return 1.0
    return 1 - (total_gap / non_idiom)


def token_order_score(idiom_words: Sequence[str], sentence_words: Sequence[str]) -> float:
    """Token order score ``to``: the share of the idiom's bigrams found among the bigrams of
    the sentence's idiom words (in sentence order). 0.0 when either has no bigram.

    >>> token_order_score(["quick", "fix"], "a quick fix".split())
    1.0
    >>> token_order_score(["quick", "fix"], "a fix quick".split())
    0.0
    >>> token_order_score(["let", "off", "steam"], "let some steam off".split())
    0.0
    """
    idiom_set = set(idiom_words)
    seen = [word for word in sentence_words if word in idiom_set]
    sentence_bigrams = set(_pairs(seen))
    if not sentence_bigrams:
        return 0.0
    idiom_bigrams = _pairs(idiom_words)
    if not idiom_bigrams:
        return 0.0
    hits = sum(1 for bigram in idiom_bigrams if bigram in sentence_bigrams)
    return hits / len(idiom_bigrams)


def f_beta(gap_score: float, order_score: float, beta: float = BETA) -> float:
    """The weighted harmonic mean of the two scores (the order score weighs more for beta > 1).

    >>> f_beta(1.0, 1.0), f_beta(0.0, 0.0), round(f_beta(0.5, 1.0), 4)
    (1.0, 0.0, 0.7093)
    """
    if gap_score == 0.0 and order_score == 0.0:
        return 0.0
    return ((beta**2 + 1) * gap_score * order_score) / (beta**2 * gap_score + order_score)


# -- sentence tokens with offsets ------------------------------------------------------------


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    """Shrink ``[start, end)`` to its first..last alphanumeric character (if it has one)."""
    lo, hi = start, end
    while lo < hi and not text[lo].isalnum():
        lo += 1
    while hi > lo and not text[hi - 1].isalnum():
        hi -= 1
    return (lo, hi) if lo < hi else (start, end)


def sentence_tokens(
    text: str, legacy_morphy: bool = True
) -> tuple[list[str], list[tuple[int, int]]]:
    """The lemmatised sentence words (``lemmatize_sentence(text).split()``) and, for each, the
    character offsets of the text it came from (see the module docstring, "Spans")."""
    words: list[str] = []
    offsets: list[tuple[int, int]] = []
    for m in _WORD_RE.finditer(text):
        tokens = lemmatize_word(m.group(), legacy_morphy).split()
        if not tokens:
            continue
        start = m.start()
        pieces = []
        for piece in re.finditer(r"[^-]+", m.group()):
            if _NON_ALNUM_RE.sub("", piece.group()):
                pieces.append(_trim(text, start + piece.start(), start + piece.end()))
        if len(pieces) != len(tokens):
            pieces = [_trim(text, m.start(), m.end())] * len(tokens)
        words.extend(tokens)
        offsets.extend(pieces)
    return words, offsets


def _tightest_group(idiom_words: Sequence[str], words: Sequence[str]) -> list[int]:
    """Token indices of the idiom's words in the tightest group (module docstring, "Spans")."""
    idiom_set = set(idiom_words)
    available = Counter(w for w in words if w in idiom_set)
    need = {w: min(c, available[w]) for w, c in Counter(idiom_words).items()}
    positions = [i for i, w in enumerate(words) if w in idiom_set]
    bigrams = set(_pairs(idiom_words))
    best: tuple[int, int, int] | None = None
    best_group: list[int] = []
    for a, first in enumerate(positions):
        have: Counter[str] = Counter()
        for b in range(a, len(positions)):
            have[words[positions[b]]] += 1
            if all(have[w] >= n for w, n in need.items()):
                group = positions[a : b + 1]
                seq = [words[i] for i in group]
                in_order = sum(1 for pair in _pairs(seq) if pair in bigrams)
                key = (positions[b] - first, -in_order, first)
                if best is None or key < best:
                    best, best_group = key, group
                break
    return best_group


# -- the matcher -----------------------------------------------------------------------------


@dataclass(frozen=True)
class _Idiom:
    index: int  # position in the lexicon
    words: tuple[str, ...]  # lemmatised words, in idiom order
    word_set: frozenset[str]


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


@register_matcher(NAME)
class IdemRulesMatcher:
    """The IDEM rule-based finder over a lexicon (module docstring).

    Parameters (validated on first use):

    - ``beta``: weight of the order score in the F-beta mean, > 0 (paper: 1.2);
    - ``threshold``: an idiom is found when F-beta is *above* this, in [0, 1] (paper: 0.9);
    - ``lemmatized``: optional mapping idiom string → lemmatised form (e.g. IDEM's released
      file via :func:`read_lemmatized_csv`); idioms it lacks are lemmatised here;
    - ``legacy_morphy``: lemmatise like NLTK 3.8.1, as the authors did (default ``True``);
    - ``keep_nested``: accepted, no effect (all found idioms are returned).

    Entries of idiomkit's own curated supplement (``source == "idiomkit"``) are left out: the
    authors' code knows SLIDE's 5,000 idioms only.

    Other keyword parameters are ignored.
    """

    name = NAME

    def __init__(
        self,
        lexicon: Lexicon,
        *,
        keep_nested: bool = False,
        beta: float = BETA,
        threshold: float = THRESHOLD,
        lemmatized: Mapping[str, str] | None = None,
        legacy_morphy: bool = True,
        **_,
    ) -> None:
        self.lexicon = lexicon
        self.keep_nested = keep_nested
        self.beta = beta
        self.threshold = threshold
        self.lemmatized = lemmatized
        self.legacy_morphy = legacy_morphy
        self._compiled = False

    def _compile(self) -> None:
        owner = type(self).__name__
        check_param(owner, "beta", self.beta, _is_number(self.beta) and self.beta > 0,
                    "a number > 0")
        check_param(owner, "threshold", self.threshold,
                    _is_number(self.threshold) and 0 <= self.threshold <= 1, "a float in [0, 1]")
        check_param(owner, "keep_nested", self.keep_nested, isinstance(self.keep_nested, bool),
                    "True or False")
        check_param(owner, "legacy_morphy", self.legacy_morphy,
                    isinstance(self.legacy_morphy, bool), "True or False")
        check_param(owner, "lemmatized", self.lemmatized,
                    self.lemmatized is None or isinstance(self.lemmatized, Mapping),
                    "None or a mapping from idiom to lemmatised form")
        _wordnet()
        given = self.lemmatized or {}
        idioms: list[_Idiom] = []
        for index, entry in enumerate(self.lexicon):
            if entry.source == SUPPLEMENT_SOURCE:
                continue
            form = given.get(entry.idiom)
            if form is None:
                form = lemmatize_idiom(entry.idiom, self.legacy_morphy)
            words = tuple(form.split())
            # An idiom without words, or with one word, has order score 0: never found.
            if len(words) > 1:
                idioms.append(_Idiom(index, words, frozenset(words)))
        frequency = Counter(w for idiom in idioms for w in idiom.word_set)
        index_: dict[str, list[_Idiom]] = {}
        for idiom in idioms:
            key = min(idiom.word_set, key=lambda w: (frequency[w], -len(w), w))
            index_.setdefault(key, []).append(idiom)
        self._idioms = idioms
        self._index = index_
        self._compiled = True

    @property
    def lemmatized_idioms(self) -> dict[int, tuple[str, ...]]:
        """Lexicon position → lemmatised words, for the idioms that can be found (2+ words)."""
        if not self._compiled:
            self._compile()
        return {idiom.index: idiom.words for idiom in self._idioms}

    def candidates(self, words: Sequence[str]) -> list[tuple[int, tuple[str, ...]]]:
        """``(lexicon position, words)`` of the idioms whose words all occur in ``words``
        (lemmatised sentence words), in lexicon order."""
        if not self._compiled:
            self._compile()
        present = set(words)
        found = [
            idiom
            for word in present
            for idiom in self._index.get(word, ())
            if idiom.word_set <= present
        ]
        found.sort(key=lambda idiom: idiom.index)
        return [(idiom.index, idiom.words) for idiom in found]

    def score(self, idiom_words: Sequence[str], words: Sequence[str]) -> tuple[float, float, float]:
        """``(token gap score, token order score, F-beta)`` of one idiom in one sentence."""
        tg = token_gap_score(idiom_words, words)
        to = token_order_score(idiom_words, words)
        return tg, to, f_beta(tg, to, self.beta)

    def match(self, text: str) -> list[Span]:
        """The idioms found in ``text``, best first (module docstring)."""
        if not self._compiled:
            self._compile()
        words, offsets = sentence_tokens(text, self.legacy_morphy)
        if not words:
            return []
        found: list[tuple[float, int, Span]] = []
        for index, idiom_words in self.candidates(words):
            _, _, score = self.score(idiom_words, words)
            if score > self.threshold:
                span = self._span(index, idiom_words, score, text, words, offsets)
                found.append((score, len(idiom_words), span))
        found.sort(key=lambda item: (-item[0], -item[1]))
        return [span for _, _, span in found]

    def _span(
        self,
        index: int,
        idiom_words: Sequence[str],
        score: float,
        text: str,
        words: Sequence[str],
        offsets: Sequence[tuple[int, int]],
    ) -> Span:
        entry = self.lexicon[index]
        group = _tightest_group(idiom_words, words)
        token_offsets: list[tuple[int, int]] = []
        for i in group:
            if not token_offsets or token_offsets[-1] != offsets[i]:
                token_offsets.append(offsets[i])
        start = min(s for s, _ in token_offsets)
        end = max(e for _, e in token_offsets)
        return Span(
            start=start,
            end=end,
            text=text[start:end],
            idiom=entry.idiom,
            idiom_id=entry.id,
            match_score=score,
            component=NAME,
            token_offsets=token_offsets,
        )
