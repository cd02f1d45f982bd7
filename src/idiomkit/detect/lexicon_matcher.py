"""The default lexicon matcher: pre-generated variants, a phrase index, scored windows.

How it works (and why it is fast):

1. **Compile once.** Each lexicon idiom becomes one or more *patterns*: a sequence of items
   that are required words (each with all its inflected forms, see :mod:`.variants`), optional
   articles, and slots (``one's`` → any possessive, ``someone`` → a short filler, ``oneself`` →
   any reflexive). Every surface form maps to the idiom words it can realise, in one dict.
   Each pattern is indexed under its *anchor*, the required word shared by the fewest idioms.
2. **Match per text.** Tokenise (offsets kept), look every token up in the form dict, and only
   for idioms whose anchor occurs *and* whose other required words all occur, align the
   required words inside a small window around each anchor occurrence. No parser, no regex per
   idiom: cost grows with the number of candidate windows, i.e. linearly with text length.
3. **Score the alignment** (:class:`MatchCosts`): start at 1 and subtract costs for what sits
   between the idiom's words (slot fillers and determiners are cheap, other words cost more
   the more there are, clause boundaries reject), for words out of order (particle shift is
   cheap; passive or fronted order costs more) and for unfilled slots. Candidates at or above
   ``threshold`` are kept.
4. **Resolve overlaps**: candidates are ranked by ``match_score`` plus a small bonus per
   required word (longer idioms are more specific: "spill the beans" beats "the beans"); walking
   that ranking, a candidate whose span overlaps an already kept one is dropped;
   ``keep_nested`` lists the dropped ones that reach the scorer's floor after the kept ones.
   The returned list is in rank order: the first span is the finder's choice.
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path

from ..document import Span
from ..errors import check_param
from ..lexicon import Lexicon
from ..text import Token, tokenize
from ..text.inflect import lemminflect
from .base import register_matcher
from .matcher_tables import MatcherTables, bundled_tables
from .scorer import LIGHT_WORDS, CandidateScorer, LexiconStats, candidate_features
from .variants import (
    ARTICLES,
    AUXILIARIES,
    CONJUNCTIONS,
    DETERMINERS,
    FUNCTION_WORDS,
    OBJECT_PRONOUNS,
    ONE,
    PARTICLES,
    POSSESSIVES,
    PREPOSITIONS,
    REFLEXIVES,
    SOMEONE,
    noun_as_verb_forms,
    spelled_alike,
    word_forms,
)

NAME = "idiomkit.lexicon_matcher.v1"

# Item kinds in a compiled pattern.
WORD, ART, POSS, OBJ, REFL, GAP = "word", "art", "poss", "obj", "refl", "gap"
# Token categories in a text.
(C_WORD, C_DET, C_POSS, C_REFL, C_AUX, C_CONJ, C_COMMA, C_STOP, C_PUNCT, C_ADV, C_REL,
 C_SUBJ, C_ART, C_SO, C_GEN, C_QUANT, C_FUNC, C_PREP) = range(18)
#: inserted words that cost what a function word costs (C_PREP: a preposition, C_FUNC:
#: another function word, a pronoun, "just" …)
_FUNCTION_INSERTS = frozenset({C_DET, C_ART, C_QUANT, C_POSS, C_GEN, C_REFL, C_REL, C_SUBJ,
                               C_FUNC, C_PREP})
#: possessives: a pronoun ("my") or the clitic of a noun's genitive (C_GEN: "John's", "the kids'")
_POSSESSIVE = (C_POSS, C_GEN)
#: what the words of a genitive's possessor can be ("the", "old", "man" in "the old man's")
_POSSESSOR_WORDS = (C_WORD, C_ADV, C_ART, C_DET, C_QUANT, C_FUNC, C_PREP, C_POSS)
#: what an article or demonstrative (C_ART) and a quantifier (C_QUANT) also are wherever the
#: scoring asks for a determiner
_DETS = (C_DET, C_ART, C_QUANT)
#: determiners that, like an article, pick out one thing: inside a bare two-word idiom they
#: make another phrase ("at that time" is not "at times")
_DEMONSTRATIVES = frozenset({"this", "these", "those"})
#: determiners that count: inside a bare two-word idiom led by a preposition they make another
#: phrase ("at all times", "for several days", "in no time" are not "at times", "for days",
#: "in time"), while a verb takes them with its object ("make no sense", "pay any attention")
_QUANTIFIERS = frozenset({"all", "each", "every", "several", "some", "any", "many", "few", "both",
                          "another", "such", "no", "either", "neither"})
_RELATIVES = frozenset({"that", "which", "who", "whom"})
#: subject pronouns: one between a fronted object and its verb marks topicalisation ("the
#: hatchet they buried", "his heart, he poured out")
_SUBJECTS = frozenset({"i", "you", "he", "she", "we", "they"})
#: conjunctions that lead a tag idiom (_Pattern.tag)
_TAG_CONJUNCTIONS = frozenset({"and", "or", "but", "nor"})
_STOP_PUNCT = frozenset(".!?;:()[]{}\"“”«»")


@dataclass(frozen=True)
class MatchCosts:
    """What each deviation from the dictionary form costs (score = 1 - total cost)."""

    #: a determiner or possessive between the words where the idiom has no slot for it
    function_word: float = 0.03
    #: an auxiliary between the words ("the beans *were* spilled")
    auxiliary: float = 0.03
    #: the n-th inserted content word costs ``content_word * n``: one adjective is cheap, many
    #: words mean the idiom's words only co-occur
    content_word: float = 0.07
    #: an inserted adverb in -ly ("the tables had *finally* turned")
    adverb: float = 0.03
    #: a comma or dash between the words
    comma: float = 0.15
    #: a conjunction between the words (a clause or list boundary)
    conjunction: float = 0.25
    #: a pair of required words in reverse order, when one of them is a particle
    particle_shift: float = 0.04
    #: any other pair in reverse order (passive, fronting)
    inversion: float = 0.10
    #: an internal possessive/reflexive slot with no filler
    empty_slot: float = 0.08
    #: most tokens a slot absorbs for free
    slot_capacity: int = 3
    #: most inserted tokens beyond what slots absorb
    max_inserted: int = 5


@dataclass
class _Pattern:
    entry_index: int
    items: list[tuple[str, str]]
    required: tuple[str, ...]
    anchor: int = 0
    n_slots: int = 0
    slot_kinds: tuple[str, ...] = ()
    internal_slots: tuple[str, ...] = ()
    articles: int = 0
    keyset: frozenset = frozenset()
    #: one bit per required word (words share the 61 bits): a fast first test of the keyset
    mask: int = 0
    #: a hyphenated compound ("heart-breaking"): its words must be adjacent and in order
    compound: bool = False
    #: the dictionary form is a list ("hook, line and sinker"): commas between its words are
    #: part of it, the serial comma included
    list_commas: bool = False
    #: required words written before a hyphen ("know", "it" in "a know-it-all"): inside a
    #: hyphenated compound they do not inflect
    fixed: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        # slot counts, read by every alignment score (the hot path): counted once here
        self.n_poss = self.slot_kinds.count(POSS)
        self.n_refl = self.slot_kinds.count(REFL)
        self.n_any = self.slot_kinds.count(OBJ) + self.slot_kinds.count(GAP)
        self.internal_poss = self.internal_slots.count(POSS)
        self.internal_refl = self.internal_slots.count(REFL)
        # required words k, k+1 with an article between them in the dictionary form
        gaps, k, article = [], -1, False
        for kind, _ in self.items:
            if kind == WORD:
                if article and k >= 0:
                    gaps.append(k)
                k, article = k + 1, False
            elif kind == ART:
                article = True
        self.article_gaps = tuple(gaps)
        # led by a preposition ("in the works", "at bay"): a phrase that neither moves apart
        # nor changes its words (_score, _prepositional_phrase_changed)
        self.prepositional = self.required[0] in PREPOSITIONS
        self.particle_led = self.prepositional or self.required[0] in PARTICLES
        articles = [key for kind, key in self.items if kind == ART]
        self.definite = "the" in articles
        self.n_indefinite = sum(a in ("a", "an") for a in articles)
        # two words, no article or slot, not a phrasal verb ("at times", "in state"): an
        # article inside is another phrase
        self.bare_pair = (len(self.required) == 2 and not self.articles and not self.n_slots
                          and self.required[1] not in PARTICLES)
        # short and led by a conjunction ("and change", "or else", "and the like"): a tag
        # added to a clause, said as one block, so no word inside and no other order ("and
        # completely change" is not "and change"); a longer one is a clause of its own that
        # takes a subject ("and they could be done with it")
        self.tag = self.required[0] in _TAG_CONJUNCTIONS and len(self.required) <= 3
        # a verb and "it" ("blow it", "wing it", "kick it"): said as one block, or "it" is
        # some other verb's object ("kick myself for missing it")
        self.verb_it = len(self.required) == 2 and self.required[1] == "it" and not self.n_slots
        # "go to …": "going to" + a verb is the future, not the idiom (_future_going_to)
        self.go_to = self.required[:2] == ("go", "to")
        # light words only and no slot ("take to", "can it"): a word inside makes another
        # phrase ("take him down to", "can see where it"), except one object before a
        # final particle ("find it out", see _light_object); adverbs do not count ("has
        # finally had it")
        self.light_inserted = (
            (1 if self.required[-1] in PARTICLES else 0)
            if not self.n_slots and all(w in LIGHT_WORDS for w in self.required) else None)
        # a verb and its particles or prepositions only ("hike up", "drop in", "angle for"):
        # after a determiner the verb is a noun and the particle a preposition
        # (_noun_before_particle)
        self.phrasal = (not self.n_slots and not self.compound and len(self.required) >= 2
                        and self.required[0] not in FUNCTION_WORDS
                        and all(w in PARTICLES or w in PREPOSITIONS for w in self.required[1:])
                        and _base_verb(self.required[0]))


@dataclass
class _Candidate:
    pattern: _Pattern
    positions: tuple[int, ...]
    lo: int
    hi: int
    score: float
    n_inserted: int = 0
    n_inversions: int = 0
    rank: float = field(default=0.0)
    #: kept only because of ``keep_nested``: listed after the finder's own choices
    nested: bool = False


def _is_third_person_verb(word: str) -> bool:
    """ "stands", "goes": a verb form in -s (so a "one" before it is a subject pronoun)."""
    if len(word) < 3 or not word.endswith("s"):
        return False
    lemmas = lemminflect.getLemma(word, upos="VERB", lemmatize_oov=False)
    return bool(lemmas) and lemmas[0] != word


#: words after which a final "one" is the generic object pronoun, not the number: "put the
#: past behind one", "carry all before one" (but "get it in one", "look out for number one")
_ONE_OBJECT_BEFORE = frozenset({"behind", "before", "upon", "about"})
_OBJECT_PREPOSITIONS = frozenset({"to", "into", "onto", "on", "at", "for", "under", "through"})


def _takes_implicit_object(items: list[tuple[str, str]]) -> bool:
    """A verb, a preposition, then a content word, and no slot written: "bring to bear"."""
    if len(items) < 3 or any(kind not in (WORD, ART) for kind, _ in items):
        return False
    (kind0, verb), (kind1, prep) = items[0], items[1]
    rest = [key for kind, key in items[2:] if kind == WORD]
    return (
        kind0 == WORD and kind1 == WORD and prep in _OBJECT_PREPOSITIONS
        and bool(rest) and rest[-1] not in FUNCTION_WORDS
        and _base_verb(verb)
    )


def _phrasal_verb(items: list[tuple[str, str]]) -> bool:
    """A word, then an object slot, "it", "to" or a particle: the word is a verb ("cotton to",
    "duke it out", "squirrel something away")."""
    if len(items) < 2 or items[0][0] != WORD:
        return False
    kind, key = items[1]
    return kind in (OBJ, REFL) or (kind == WORD and (key in PARTICLES or key in ("it", "to")))


def _trailing_object(items: list[tuple[str, str]]) -> bool:
    """A final "something" after a preposition, in an idiom with a word that is not a function
    word: "make a beeline for something", not "up to something" or "that's saying something"."""
    return len(items) >= 3 and items[-1] == (OBJ, "something") and items[-2][0] == WORD \
        and items[-2][1] in PREPOSITIONS \
        and any(kind == WORD and key not in FUNCTION_WORDS for kind, key in items[:-2])


def _coordinated_verbs(items: list[tuple[str, str]]) -> bool:
    """"X and Y" with Y a verb that is no noun: X is a verb too, whatever lemminflect knows it as
    ("wine and dine": "wined and dined")."""
    return len(items) == 3 and all(kind == WORD for kind, _ in items) \
        and items[1][1] == "and" and _bare_verb(items[2][1])


def _compile_items(idiom: str) -> list[list[tuple[str, str]]]:
    """Turn an idiom's dictionary form into pattern items (one list per variant)."""
    tokens = [t.norm for t in tokenize(idiom) if t.norm[:1].isalnum() or t.norm[:1] == "'"]
    tokens = [t for t in tokens if t != "'"]
    items: list[tuple[str, str]] = []
    i = 0
    while i < len(tokens):
        norm = tokens[i]
        nxt = tokens[i + 1] if i + 1 < len(tokens) else ""
        if norm in ONE and nxt == "'s":
            items.append((POSS, norm))
            i += 2
            continue
        if norm in SOMEONE or (norm == "one" and i > 0 and (
            nxt in AUXILIARIES or _is_third_person_verb(nxt)
            or (not nxt and (tokens[i - 1] in _ONE_OBJECT_BEFORE
                             or _is_third_person_verb(tokens[i - 1])))
        )):
            # "give someone the cold shoulder", "an offer one can't refuse", "know where one
            # stands" (any subject: "where I stand"), "bite the hand that feeds one" (any
            # object: "feeds you")
            items.append((OBJ, norm))
        elif norm in REFLEXIVES:
            items.append((REFL, norm))
        elif norm in ARTICLES:
            items.append((ART, norm))
        elif norm in POSSESSIVES and norm != "'s":
            items.append((POSS, norm))
        else:
            items.append((WORD, norm))
        i += 1
    if len(items) > 1 and items[-1][0] == REFL:
        # a reflexive that ends an idiom is what makes it one: "fall over oneself" is not
        # "fall over", "beside oneself" not "beside"; so it is a required word that any
        # reflexive realises ("kicked myself", "beside herself")
        items[-1] = (WORD, "oneself")
    # "something" at an edge is a literal word ("up to something", "something like"); only
    # between the idiom's words is it a placeholder ("take something with a grain of salt"),
    # and after a closing preposition of an idiom with a content word, where it stands for the
    # object the idiom ends before ("bear the brunt of something": "… of the job").
    if _trailing_object(items):
        items.pop()
    for edge in (0, len(items) - 1):
        if items and items[edge] == (OBJ, "something"):
            items[edge] = (WORD, "something")
    compound = "-" in idiom and " " not in idiom.strip()
    if not compound and _takes_implicit_object(items):
        # "bring to justice" is said "bring the culprit to justice": a verb followed by a
        # preposition phrase takes its object in between, as if written "bring someone to …"
        items.insert(1, (OBJ, "someone"))
    if compound or (sum(kind == WORD for kind, _ in items) < 2 and len(items) > 1):
        # With one content word ("do a", "know someone", "my eye") the other words are what
        # make it the idiom, and a hyphenated compound ("by-the-book", "dyed-in-the-wool") is
        # written as one unit: take the whole form literally.
        items = [(WORD, key) for _, key in items]
    if "..." in idiom:  # "ride the ... train": a free gap where the dots are
        before = idiom.split("...")[0]
        n_before = len([t for t in tokenize(before) if t.norm[:1].isalnum()])
        items.insert(min(n_before, len(items)), (GAP, "..."))
    variants = [items, *_written_variants(idiom, items)]
    # A hyphenated compound may also be written as one word ("back-burner" / "backburner"),
    # and so may an open noun compound ("head hunter" / "headhunter", "cake walk").
    if compound:
        joined = idiom.replace("-", "").lower()
        variants.append([(WORD, joined)])
    elif _open_compound(items):
        variants.append([(WORD, items[0][1] + items[1][1])])
    return variants


def _written_variants(idiom: str, items: list[tuple[str, str]]) -> list[list[tuple[str, str]]]:
    """Other ways the dictionary form is commonly written, as extra patterns of the entry:

    - a simile without its first "as": "as sharp as a needle" / "sharp as a needle";
    - a plural or -s genitive without its apostrophe: "Achilles heel", "old wives tale";
    - "never" for a leading "not" with two content words after it: "never slept a wink";
    - no "not" before a prepositional phrase of two content words and no slot: "would never
      in a month of Sundays", "not for all the tea in China".
    """
    variants = []
    content = [key for kind, key in items if kind == WORD and key not in FUNCTION_WORDS]
    if len(items) >= 4 and items[0] == (WORD, "as") and items[2] == (WORD, "as"):
        variants.append(items[1:])
    if re.search(r"s['’] ", idiom):
        dropped = [item for k, item in enumerate(items)
                   if not (item == (WORD, "'s") and k and items[k - 1][1].endswith("s"))]
        if len(dropped) < len(items):
            variants.append(dropped)
    if items[0] == (WORD, "not") and len(content) >= 2:
        variants.append([(WORD, "never"), *items[1:]])
        if items[1][0] == WORD and items[1][1] in PREPOSITIONS and all(
            kind in (WORD, ART) for kind, _ in items
        ):
            variants.append(items[1:])
    return variants


def _open_compound(items: list[tuple[str, str]]) -> bool:
    """Two content words, the second a noun: "head hunter", not "stand by" or "work out"."""
    if len(items) != 2 or any(kind != WORD for kind, _ in items):
        return False
    first, second = (key for _, key in items)
    return first.isalpha() and second.isalpha() and first not in FUNCTION_WORDS and _noun(second)


class LexiconMatcher:
    """Find lexicon idioms under inflection, slots, insertions, reordering (module docstring).

    Parameters (validated when the matcher compiles):

    - ``threshold``: lowest ``match_score`` kept, in [0, 1];
    - ``keep_nested``: also return, after the finder's choices, the candidates inside or
      overlapping a better one that reach the scorer's floor (without a scorer: all);
    - ``include_filtered``: also match entries the lexicon marks ``filter_out`` (SLIDE flags 103
      entries, e.g. "at stake", as not idiomatic enough);
    - ``length_bonus``: rank bonus per required word beyond the first;
    - ``costs``: a :class:`MatchCosts`;
    - ``every_group``: with the scorer, also keep the best candidate of every group of
      overlapping candidates that no kept one touches, down to the scorer's floor (the
      scorer is calibrated on IDEM, one idiom per sentence, and keeps a second idiom only
      when it is confident: "it was about time he got his act together" gives "about time");
    - ``scorer``: ``"default"`` ranks and prunes candidates with the bundled calibrated
      :class:`~idiomkit.detect.scorer.CandidateScorer` (each span's ``confidence`` is its
      probability that the candidate is the idiom meant); a path loads another; ``None``
      ranks by alignment score plus ``length_bonus`` and keeps all above ``threshold``;
    - ``tables``: precomputed compile answers (:mod:`.matcher_tables`); ``None`` uses the
      bundled ones, an empty :class:`~.matcher_tables.MatcherTables` computes everything.
    """

    name = NAME

    def __init__(
        self,
        lexicon: Lexicon,
        *,
        threshold: float = 0.8,
        keep_nested: bool = False,
        include_filtered: bool = False,
        every_group: bool = False,
        length_bonus: float = 0.04,
        costs: MatchCosts | None = None,
        scorer: str | Path | None = "default",
        tables: MatcherTables | None = None,
    ) -> None:
        self.lexicon = lexicon
        self.threshold = threshold
        self.keep_nested = keep_nested
        self.include_filtered = include_filtered
        self.every_group = every_group
        self.length_bonus = length_bonus
        self.costs = costs or MatchCosts()
        self.scorer = scorer
        self.tables = tables
        self._compiled = False

    # -- compilation -------------------------------------------------------------------
    def _compile(self) -> None:
        check_param(type(self).__name__, "threshold", self.threshold,
                    isinstance(self.threshold, (int, float)) and 0 <= self.threshold <= 1,
                    "a float in [0, 1]")
        check_param(type(self).__name__, "length_bonus", self.length_bonus,
                    isinstance(self.length_bonus, (int, float)) and self.length_bonus >= 0,
                    "a float >= 0")
        answers = _Answers(_bundled_answers() if self.tables is None else self.tables)
        patterns: list[_Pattern] = []
        entries = [(index, entry) for index, entry in enumerate(self.lexicon)
                   if not entry.filter_out or self.include_filtered]
        # another way of writing one entry that is itself an entry ("as straight as a die"
        # written "straight as a die") is left to that entry
        written = {entry.idiom.lower() for _, entry in entries}
        for index, entry in entries:
            for n, items in enumerate(answers.idiom_items(entry.idiom)):
                if n and " ".join(key for _, key in items) in written:
                    continue
                required = tuple(key for kind, key in items if kind == WORD)
                if not required:
                    continue
                word_idx = [k for k, (kind, _) in enumerate(items) if kind == WORD]
                first, last = word_idx[0], word_idx[-1]
                internal = tuple(
                    kind for k, (kind, _) in enumerate(items)
                    if first < k < last and kind in (POSS, REFL, OBJ, GAP)
                )
                patterns.append(
                    _Pattern(
                        entry_index=index,
                        items=items,
                        required=required,
                        n_slots=sum(kind in (POSS, OBJ, REFL, GAP) for kind, _ in items),
                        slot_kinds=tuple(k for k, _ in items if k in (POSS, OBJ, REFL, GAP)),
                        internal_slots=internal,
                        articles=sum(kind == ART for kind, _ in items),
                        compound="-" in entry.idiom and " " not in entry.idiom.strip(),
                        list_commas="," in entry.idiom,
                        fixed=_before_hyphens(entry.idiom, required),
                    )
                )
        # Map every surface form to the idiom words it realises.
        form_to_keys: dict[str, set[str]] = defaultdict(set)
        key_idioms: dict[str, int] = defaultdict(int)
        for pattern in patterns:
            for key in set(pattern.required):
                key_idioms[key] += 1
                for form in answers.word_forms(key):
                    form_to_keys[form].add(key)
            if _phrasal_verb(pattern.items) or _coordinated_verbs(pattern.items):
                for form in answers.verb_forms(pattern.items[0][1]):
                    form_to_keys[form].add(pattern.items[0][1])
        index_: dict[str, list[_Pattern]] = defaultdict(list)
        bits = {key: 1 << (n % 61) for n, key in enumerate(sorted(key_idioms))}
        for pattern in patterns:
            # Anchor on the most selective word: fewest idioms, then the longest word.
            pattern.anchor = min(
                range(len(pattern.required)),
                key=lambda k: (key_idioms[pattern.required[k]], -len(pattern.required[k])),
            )
            pattern.keyset = frozenset(pattern.required)
            for key in pattern.keyset:
                pattern.mask |= bits[key]
            index_[pattern.required[pattern.anchor]].append(pattern)
        # The hot loop's one lookup per token: each idiom word the form realises, its bit,
        # and the patterns anchored on that word (with their masks and keysets at hand).
        anchored_on = {key: tuple((p.mask, p.keyset, p) for p in patterns)
                       for key, patterns in index_.items()}
        self._form_entries = {
            form: tuple((key, bits[key], anchored_on.get(key, ())) for key in sorted(keys))
            for form, keys in form_to_keys.items()
        }
        self._patterns = patterns
        self._scorer = None
        if self.scorer is not None:
            self._scorer = CandidateScorer.load(None if self.scorer == "default" else self.scorer)
        idioms = [e.idiom for e in self.lexicon]
        self._lexicon_stats = LexiconStats(
            word_idioms=dict(key_idioms),
            has_definition=[bool(e.definition) for e in self.lexicon],
            hyphenated=["-" in idiom for idiom in idioms],
            # calibration sets the rates it counts; without a scorer they are unused
            general=self._scorer.general_rates(idioms) if self._scorer else [0.0] * len(idioms),
        )
        self._compiled = True
        self.computed = answers.computed

    # -- matching ----------------------------------------------------------------------
    def match(self, text: str) -> list[Span]:
        """Return the idioms in ``text``, best first (see the module docstring)."""
        cands, tokens = self.candidates(text)
        if not cands:
            return []
        norms = [t.norm for t in tokens]
        if len(cands) == 1:
            kept = self._rank_sentence(cands, norms, tokens, text)
        else:
            # A match never crosses a sentence stop, so ranking and pruning work per sentence:
            # linear in the length of a long text.
            stops = [i for i, norm in enumerate(norms) if _category(norm) == C_STOP]
            sentences: dict[int, list[_Candidate]] = defaultdict(list)
            for cand in cands:
                sentences[bisect.bisect_left(stops, cand.lo)].append(cand)
            kept = []
            for key in sorted(sentences):
                kept.extend(self._rank_sentence(sentences[key], norms, tokens, text))
        kept.sort(key=lambda c: (c.nested, -c.rank, c.lo, c.pattern.entry_index))
        return [self._span(c, text, tokens) for c in kept]

    def _rank_sentence(
        self, cands: list[_Candidate], norms: Sequence[str], tokens: Sequence[Token], text: str
    ) -> list[_Candidate]:
        """Score, rank and prune the candidates of one sentence (:func:`select_candidates`);
        overlaps go to the better one. ``keep_nested`` adds, after those, every other candidate
        that reaches the scorer's floor (without a scorer: every candidate)."""
        if self.keep_nested:
            # the default path's _drop_contained does this among its other drops
            cands = _drop_shorter_variants(cands)
        if self._scorer is None:
            if not self.keep_nested:
                cands = _drop_light_overlaps(_drop_contained(cands))
            for cand in cands:
                cand.rank = cand.score + self.length_bonus * (len(set(cand.pattern.required)) - 1)
            cands.sort(key=lambda c: (-c.rank, c.lo, c.pattern.entry_index))
            return cands if self.keep_nested else _drop_overlaps(cands)
        scorer = self._scorer
        pool = _drop_light_overlaps(_drop_contained(cands))
        for cand, prob in zip(pool, self._probabilities(pool, norms, tokens, text)):
            cand.rank = prob
        kept = _drop_overlaps(select_candidates(pool, scorer.min_confidence, floor=scorer.floor,
                                                every_group=self.every_group))
        if self.keep_nested and len(kept) < len(cands):
            # the others, each scored among all candidates
            chosen = {id(c) for c in kept}
            for cand, prob in zip(cands, self._probabilities(cands, norms, tokens, text)):
                if id(cand) not in chosen and prob >= scorer.floor:
                    cand.rank, cand.nested = prob, True
                    kept.append(cand)
        return kept

    def _probabilities(self, cands: list[_Candidate], norms: Sequence[str],
                       tokens: Sequence[Token], text: str) -> list[float]:
        """The scorer's probability of each candidate, given its neighbours in ``cands``."""
        return self._scorer.predict(
            candidate_features(cands, self._lexicon_stats, norms, tokens, text))

    def candidates(self, text: str) -> tuple[list[_Candidate], list[Token]]:
        """All alignments at or above ``threshold``, unranked (for scoring and calibration)."""
        if not self._compiled:
            self._compile()
        tokens = tokenize(text)
        if not tokens:
            return [], tokens
        positions: dict[str, list[int]] = {}
        anchored: list[tuple[int, frozenset, _Pattern]] = []
        lookup = self._form_entries.get
        mask = 0
        for i, token in enumerate(tokens):
            entries = lookup(token.norm)
            if entries:
                for key, bit, patterns in entries:
                    where = positions.get(key)
                    if where is None:
                        positions[key] = [i]
                        mask |= bit
                        anchored.extend(patterns)
                    else:
                        where.append(i)
        if not anchored:
            return [], tokens
        present = positions.keys()
        missing = ~mask
        best: dict[tuple[int, int, int], _Candidate] = {}
        categories: list[int] | None = None
        for pattern_mask, keyset, pattern in anchored:
            # the bit test rejects most patterns whose words are not all present, cheaply
            if pattern_mask & missing or not keyset <= present:
                continue
            if categories is None:
                categories = list(map(_category, (t.norm for t in tokens)))
            for cand in self._align(pattern, positions, tokens, categories):
                ident = (pattern.entry_index, cand.lo, cand.hi)
                old = best.get(ident)
                if old is None or cand.score > old.score:
                    best[ident] = cand
        return [c for c in best.values()
                if c.score >= self.threshold and not _future_going_to(c, tokens)
                and _light_object(c, tokens) and not _noun_before_particle(c, tokens)
                and not _inflected_inside_compound(c, tokens) and not _name_inside(c, tokens)
                and not _prepositional_phrase_changed(c, tokens)], tokens

    def _align(
        self,
        pattern: _Pattern,
        positions: dict[str, list[int]],
        tokens: Sequence[Token],
        categories: Sequence[int],
    ):
        """Yield the best alignment of ``pattern`` around each occurrence of its anchor."""
        required = pattern.required
        window = len(required) + pattern.n_slots * self.costs.slot_capacity + 6
        for a in positions[required[pattern.anchor]]:
            options = []
            for k, key in enumerate(required):
                if k == pattern.anchor:
                    options.append((a,))
                    continue
                plist = positions[key]
                lo = bisect.bisect_left(plist, a - window)
                hi = bisect.bisect_right(plist, a + window)
                near = plist[lo:hi]
                if not near:
                    break
                if len(near) > 4:
                    near = sorted(near, key=lambda p: abs(p - a))[:4]
                options.append(near)
            else:
                best: _Candidate | None = None
                for combo in itertools.product(*options):
                    if len(set(combo)) != len(combo):
                        continue
                    scored = self._score(pattern, combo, categories)
                    if scored is not None and (best is None or scored[0] > best.score):
                        best = _Candidate(pattern, combo, min(combo), max(combo), *scored)
                if best is not None:
                    yield best

    def _score(self, pattern: _Pattern, combo: tuple[int, ...], categories: Sequence[int]):
        """Score one alignment: ``(score, n_inserted, n_inversions)``, or ``None`` when it
        cannot be the idiom."""
        costs = self.costs
        lo, hi = min(combo), max(combo)
        if pattern.compound and list(combo) != list(range(lo, hi + 1)):
            return None
        used = set(combo)
        cost = 0.0
        has_marker = False
        # Slot budget: possessive/object/reflexive slots and articles absorb fitting fillers.
        free_poss = pattern.n_poss
        free_refl = pattern.n_refl
        free_any = pattern.n_any * costs.slot_capacity
        free_det = pattern.articles + free_poss
        n_content = 0
        n_inserted = n_hard = 0
        n_dets = 0
        possessor = _possessor(used, lo, hi, categories) if free_poss else ()
        for i in range(lo + 1, hi):
            if i in used or i in possessor:
                continue
            cat = categories[i]
            if cat == C_STOP:
                return None
            if cat == C_SO:
                # right before an idiom word "so" is an intensifier ("got so out of hand"),
                # elsewhere a conjunction ("he left, so they spilled the beans")
                cat = C_ADV if i + 1 in used else C_CONJ
            if cat in (C_AUX, C_REL, C_SUBJ):
                has_marker = True
            if cat == C_COMMA and i + 1 < hi and categories[i + 1] == C_SUBJ:
                cat = C_SUBJ  # "his heart, he poured out": the comma belongs to the fronting
            if cat in _POSSESSIVE and free_poss:
                free_poss -= 1
                free_det -= 1
                continue
            if cat == C_REFL and free_refl:
                free_refl -= 1
                continue
            if (cat in _DETS or cat == C_REL) and free_det:
                free_det -= 1
                if cat in _DETS:
                    n_dets += 1
                continue
            if pattern.bare_pair and (
                    cat == C_ART or (cat == C_QUANT and pattern.prepositional)
                    or (cat == C_PREP and pattern.particle_led)
                    or (cat == C_REL and combo[0] < combo[1])):
                # an article or demonstrative inside a two-word idiom that has none makes
                # another phrase: "at the time", "at that time" are not "at times", and so
                # does a preposition inside one led by a particle: "up in front" is not "up
                # front" (a relative word is fine in reversed order: "the corners that he cut")
                return None
            if cat == C_COMMA and pattern.list_commas:
                continue
            if free_any and cat != C_COMMA:
                free_any -= 1
                continue
            n_inserted += 1
            if cat != C_ADV:
                n_hard += 1
            if cat in _FUNCTION_INSERTS:
                cost += costs.function_word
            elif cat == C_AUX:
                cost += costs.auxiliary
            elif cat == C_COMMA:
                cost += costs.comma
            elif cat == C_CONJ:
                cost += costs.conjunction
            elif cat == C_ADV:
                cost += costs.adverb
            else:
                n_content += 1
                cost += costs.content_word * n_content
        if n_inserted > costs.max_inserted or (
                pattern.light_inserted is not None and n_hard > pattern.light_inserted) or (
                (pattern.tag or pattern.verb_it) and (n_inserted or list(combo) != sorted(combo))):
            return None
        for k in pattern.article_gaps:
            if combo[k + 1] == combo[k] + 1:
                # the article's words side by side make a compound: "the playing field" is
                # not "play the field"
                return None
        # A determiner where the idiom has someone's ("come to the aid of", "fill those
        # shoes") fills the slot, a little less exactly.
        by_det = min(free_poss, n_dets - pattern.articles)
        if by_det > 0:
            free_poss -= by_det
            cost += costs.function_word * by_det
        # Unfilled internal possessive/reflexive slots ("pour heart out").
        if pattern.internal_slots:
            missing = pattern.internal_poss - (pattern.n_poss - free_poss)
            missing += pattern.internal_refl - (pattern.n_refl - free_refl)
            if missing > 0:
                if not (lo > 0 and categories[lo - 1] in _POSSESSIVE):
                    # "close one's eyes" needs someone's eyes: "a close eye" is another idiom.
                    return None
                # else the possessive stands just before a fronted noun ("his bluff was called")
        # Order: every reversed pair of required words costs.
        required = pattern.required
        n_inversions = 0
        n_moved = 0
        # A particle shifts around the object while the verb stays in front ("pour out one's
        # heart"); a particle that leads the idiom, or moves before its verb, is not a shift
        # ("missed out on" is not "on the outs", "work in" not "in the works").
        verb_first = required[0] not in PARTICLES and combo[0] == lo
        for x in range(len(combo)):
            for y in range(x + 1, len(combo)):
                if combo[x] > combo[y]:
                    n_inversions += 1
                    if verb_first and (required[x] in PARTICLES or required[y] in PARTICLES):
                        cost += costs.particle_shift
                    else:
                        # Moving a block (passive: "a blind eye was turned") reverses several
                        # pairs at once; the first reversal is what costs.
                        n_moved += 1
                        cost += costs.inversion if n_moved == 1 else costs.particle_shift
        if n_moved and pattern.prepositional:
            # a prepositional phrase does not move apart: "the house was built on" is not
            # "on the house", nor "the zone it was in" "in the zone"
            return None
        if n_moved and not has_marker:
            # Reversed order is a passive or a relative clause ("the beans were spilled", "the
            # bluff that she called"); without an auxiliary or relative word ("Beans spill")
            # the words only co-occur.
            return None
        return max(0.0, 1.0 - cost), n_inserted, n_inversions

    def _span(self, cand: _Candidate, text: str, tokens: Sequence[Token]) -> Span:
        entry = self.lexicon[cand.pattern.entry_index]
        start, end = tokens[cand.lo].start, tokens[cand.hi].end
        return Span(
            start=start,
            end=end,
            text=text[start:end],
            idiom=entry.idiom,
            idiom_id=entry.id,
            match_score=round(cand.score, 4),
            confidence=round(cand.rank, 4) if self._scorer is not None else None,
            component=NAME,
            token_offsets=[(tokens[p].start, tokens[p].end) for p in sorted(cand.positions)],
        )


def _before_hyphens(idiom: str, required: Sequence[str]) -> tuple[int, ...]:
    """The positions in ``required`` of the words ``idiom`` writes before a hyphen.

    >>> _before_hyphens("a know-it-all", ("know", "it", "all"))
    (0, 1)
    """
    before = set(re.findall(r"([\w']+)-", idiom.lower()))
    return tuple(k for k, key in enumerate(required) if key in before) if before else ()


def _inflected_inside_compound(cand: _Candidate, tokens: Sequence[Token]) -> bool:
    """Whether ``cand`` reads a hyphenated compound with a word before its last one inflected:
    a compound is one word, so only its end inflects ("nickel-and-dimed"), and "had been",
    "knew it all" are not "has-been", "a know-it-all". A plural "s" is allowed inside
    ("sticks-in-the-mud")."""
    required = cand.pattern.required
    return any(tokens[cand.positions[k]].norm not in (required[k], required[k] + "s")
               for k in cand.pattern.fixed)


def _name_inside(cand: _Candidate, tokens: Sequence[Token]) -> bool:
    """Whether a capitalised word sits between the words of an idiom that has no slot for
    one and is led by a function word, in text that is not title case: the name makes another
    phrase ("in the North zone", "at Catfish Bay", "for New England" are not "in the zone",
    "at bay", "for England")."""
    if cand.pattern.n_slots or cand.pattern.required[0] not in FUNCTION_WORDS:
        # a name can fill the slot or be a verb's object: "left Alastair Cook to his own
        # devices", "caught Jack on the hop"
        return False
    used = set(cand.positions)
    return any(tokens[i].text[:1].isupper() and tokens[i].norm != "i"
               for i in range(cand.lo + 1, cand.hi) if i not in used) and not all(
        tokens[p].text[:1].isupper() for p in used)  # a title: "Keep A Close Eye On"


def _prepositional_phrase_changed(cand: _Candidate, tokens: Sequence[Token]) -> bool:
    """Whether an idiom led by a preposition is read in another shape; such a phrase is fixed.

    - "a" or "an" where it has "the" means any such thing: "under a table", "on a road" are
      not "under the table", "on the road" (the other way round stays: "at the crossroads" is
      "at a crossroads");
    - a content word in another form is another phrase: "in the work", "at her resting spot",
      "later writings" are not "in the works", "at rest", "of late". Spelling may differ;
      with a possessive slot the noun agrees with it ("at the top of their voices"); "like"
      idioms compare freely ("like kids in a candy store").
    """
    pattern = cand.pattern
    if not pattern.prepositional:
        return False
    if pattern.definite:
        used = set(cand.positions)
        indefinite = sum(tokens[i].norm in ("a", "an")
                         for i in range(cand.lo + 1, cand.hi) if i not in used)
        if indefinite > pattern.n_indefinite:
            return True
    if pattern.n_poss or pattern.required[0] == "like":
        return False
    return any(not spelled_alike(tokens[p].norm, word)
               for p, word in zip(cand.positions[1:], pattern.required[1:])
               if word not in FUNCTION_WORDS)


def _possessor(used: set[int], lo: int, hi: int, categories: Sequence[int]) -> range:
    """The words of a genitive inside an alignment, which fill the idiom's someone's slot
    with its clitic: "John", "the old man" in "pulled John's leg", "got on the old man's
    nerves". Up to four words back from the first free "'s" after a noun, not past an idiom
    word; an empty range when there is none."""
    for g in range(lo + 2, hi):
        if (categories[g] == C_GEN and g not in used and g - 1 not in used
                and categories[g - 1] == C_WORD):
            start = g - 1
            while (start - 1 > lo and g - start < 4 and start - 1 not in used
                   and categories[start - 1] in _POSSESSOR_WORDS):
                start -= 1
            return range(start, g)
    return range(0)


@lru_cache(maxsize=65536)
def _category(norm: str) -> int:
    if not (norm[:1].isalnum() or norm == "'s"):
        if norm in _STOP_PUNCT:
            return C_STOP
        if norm in (",", "-", "–", "—"):
            return C_COMMA
        return C_PUNCT
    if norm in _RELATIVES:
        return C_REL
    if norm in _SUBJECTS:
        return C_SUBJ
    if norm == "'s":
        return C_GEN
    if norm in POSSESSIVES:
        return C_POSS
    if norm in REFLEXIVES:
        return C_REFL
    if norm in ARTICLES or norm in _DEMONSTRATIVES:
        return C_ART
    if norm in _QUANTIFIERS:
        return C_QUANT
    if norm in DETERMINERS:
        return C_DET
    if norm in AUXILIARIES:
        return C_AUX
    if norm == "so":
        return C_SO
    if norm in CONJUNCTIONS:
        return C_CONJ
    if norm in FUNCTION_WORDS:
        # another function word (a preposition, a pronoun, "just") fills no determiner slot:
        # "acting at age 12" is not "act one's age"; but "me" is "my" in British speech
        # ("gets on me nerves")
        if norm == "me":
            return C_DET
        return C_PREP if norm in PREPOSITIONS else C_FUNC
    if norm.endswith("ly") and len(norm) > 4:
        return C_ADV
    return C_WORD


def _future_going_to(cand: _Candidate, tokens: Sequence[Token]) -> bool:
    """Whether ``cand`` reads an idiom's "go to" into the future "going to" + verb ("it is
    going to be fine" is not "go to"; "going to pot" still is "go to pot")."""
    if not cand.pattern.go_to:
        return False
    go, to = cand.positions[0], cand.positions[1]
    if tokens[go].norm != "going" or to != go + 1 or to + 1 >= len(tokens):
        return False
    return _bare_verb(tokens[to + 1].norm)


#: words that can stand alone as the object inside a light-word phrasal verb ("find it out")
_LONE_OBJECTS = OBJECT_PRONOUNS | REFLEXIVES | _DEMONSTRATIVES | SOMEONE | frozenset(
    {"that", "everything", "anything", "nothing", "everyone", "everybody", "anybody", "nobody",
     "things"})
#: adverbs without -ly that may stand inside as well ("we're just around", "is still around")
_PLAIN_ADVERBS = frozenset(
    {"just", "still", "not", "n't", "never", "always", "ever", "even", "only", "also", "really",
     "already", "so", "too", "very", "quite", "all"})


def _light_object(cand: _Candidate, tokens: Sequence[Token]) -> bool:
    """Whether the one word a light-word phrasal verb lets in is its object: a pronoun, a
    reflexive or a name ("take it on", "put himself out", "put Nour out"). Another lone word
    makes another phrase: "take place on", "go round in", "look down on", "keep eye on"."""
    if not cand.pattern.light_inserted:
        return True
    used = set(cand.positions)
    for i in range(cand.lo + 1, cand.hi):
        norm = tokens[i].norm
        if i in used or norm in _PLAIN_ADVERBS or _category(norm) == C_ADV or (
                norm == "," and cand.pattern.list_commas):
            continue
        if norm not in _LONE_OBJECTS and not tokens[i].text[:1].isupper():
            return False
    return True


#: words after which a verb's base or -s form is a noun ("a hike", "the drops", "their bottle");
#: "her" is left out, as it is also an object ("let her drop in")
_NOUN_DETERMINERS = (ARTICLES | _DEMONSTRATIVES | frozenset({"every", "each", "another"})
                     | (POSSESSIVES - {"her", "thy", "one's", "'s", "whose"}))


def _noun_before_particle(cand: _Candidate, tokens: Sequence[Token]) -> bool:
    """Whether ``cand`` reads a noun and a preposition as a phrasal verb: "took a hike up a
    trail" is not "hike up", "a drop in crime rates" is not "drop in". The verb of a
    phrasal-verb idiom, in its base or -s form right after a determiner or a number ("a 5%
    drop in sales"), is a noun there, and when a noun phrase follows, its particle is a
    preposition. A noun made of the phrasal verb keeps it: "their break up was hard". (A
    singular noun before the verb says nothing: "saw the sculptor flesh out the details".)"""
    if not cand.pattern.phrasal:
        return False
    verb, last = cand.positions[0], cand.positions[-1]
    if verb == 0 or verb > cand.positions[1] or last + 1 >= len(tokens):
        return False
    norm, base = tokens[verb].norm, cand.pattern.required[0]
    before = tokens[verb - 1].norm
    if norm not in (base, base + "s", base + "es"):
        return False
    if not (before in _NOUN_DETERMINERS or before == "%" or before[:1].isdigit()):
        return False
    after = tokens[last + 1].norm
    return after in _NOUN_DETERMINERS or _noun(after)


#: lemminflect's readings known without asking it (the bundled matcher tables)
_KNOWN_READINGS: dict[str, dict[str, tuple[str, ...]]] = {}
#: while :func:`compute_tables` runs: every word whose readings were asked
_ASKED_READINGS: set[str] | None = None


@lru_cache(maxsize=8192)
def _readings(norm: str) -> dict[str, tuple[str, ...]]:
    """lemminflect's lemmas of ``norm`` by part of speech (read-only; cached)."""
    known = _KNOWN_READINGS.get(norm)
    if known is not None:
        return known
    if _ASKED_READINGS is not None:
        _ASKED_READINGS.add(norm)
    return lemminflect.getAllLemmas(norm)


class _Answers:
    """What compiling asks of lemminflect: from precomputed tables where they have it,
    else computed now and kept in ``computed`` (in the tables' JSON types)."""

    def __init__(self, tables: _Answers | MatcherTables | None = None) -> None:
        if isinstance(tables, _Answers):
            self.items, self.forms, self.verbs = tables.items, tables.forms, tables.verbs
        else:
            tables = tables or MatcherTables()
            self.items = {idiom: [[tuple(item) for item in variant] for variant in variants]
                          for idiom, variants in tables.items.items()}
            self.forms = {word: frozenset(forms) for word, forms in tables.forms.items()}
            self.verbs = {word: frozenset(forms) for word, forms in tables.verb_forms.items()}
        self.computed = MatcherTables()

    def idiom_items(self, idiom: str) -> list[list[tuple[str, str]]]:
        variants = self.items.get(idiom)
        if variants is None:
            variants = _compile_items(idiom)
            self.computed.items[idiom] = [[list(item) for item in v] for v in variants]
        return variants

    def word_forms(self, word: str) -> frozenset[str]:
        return self._forms(self.forms, self.computed.forms, word, word_forms)

    def verb_forms(self, word: str) -> frozenset[str]:
        return self._forms(self.verbs, self.computed.verb_forms, word, noun_as_verb_forms)

    @staticmethod
    def _forms(known: dict, computed: dict, word: str, compute) -> frozenset[str]:
        forms = known.get(word)
        if forms is None:
            forms = compute(word)
            computed[word] = sorted(forms)
        return forms


@cache
def _bundled_answers() -> _Answers:
    """The bundled tables (:func:`.matcher_tables.bundled_tables`), converted once."""
    tables = bundled_tables()
    _KNOWN_READINGS.update({word: {pos: tuple(lemmas) for pos, lemmas in readings.items()}
                            for word, readings in tables.readings.items()})
    return _Answers(tables)


def compute_tables(lexicon: Lexicon) -> MatcherTables:
    """Everything compiling ``lexicon`` (filtered entries too) asks of lemminflect, computed
    afresh: what ``idiomkit lexicon build`` stores (:mod:`.matcher_tables`)."""
    global _ASKED_READINGS
    matcher = LexiconMatcher(lexicon, include_filtered=True, scorer=None,
                             tables=MatcherTables())
    known = dict(_KNOWN_READINGS)
    _KNOWN_READINGS.clear()
    _readings.cache_clear()
    _ASKED_READINGS = set()
    try:
        matcher._compile()
        asked = _ASKED_READINGS
    finally:
        _ASKED_READINGS = None
        _KNOWN_READINGS.update(known)
        _readings.cache_clear()
    tables = matcher.computed
    tables.readings = {word: {pos: list(lemmas) for pos, lemmas in
                              lemminflect.getAllLemmas(word).items()} for word in sorted(asked)}
    return tables


def _base_verb(norm: str) -> bool:
    """A verb's base form ("hike", "drop"; not "stuck", "hands", "washed")."""
    return norm in _readings(norm).get("VERB", ())


def _noun(norm: str) -> bool:
    """A word that can be a noun ("crime", "prices"), and is no function word."""
    return norm not in FUNCTION_WORDS and "NOUN" in _readings(norm)


def _bare_verb(norm: str) -> bool:
    """A verb's base form that is no noun ("be", "get", "happen"; not "school", "pot")."""
    readings = _readings(norm)
    return norm in readings.get("VERB", ()) + readings.get("AUX", ()) and "NOUN" not in readings


def select_candidates(scored: list[_Candidate], min_confidence: float, *, floor: float = 0.0,
                      every_group: bool = False) -> list[_Candidate]:
    """Rank one sentence's scored candidates (``rank`` set) and keep the ones to return.

    The best candidate stays (the lexicon says these words can be this idiom) unless its
    confidence is below ``floor``, which leaves plain words plain ("It has been a long day" is
    no "has-been"); any other stays when it is likely enough on its own, or when it is a
    *strong* match: the dictionary form almost exactly, with at least two words that are not
    light words ("kick the bucket" next to "spill the beans"). Used at run time and by the
    calibration that picks ``min_confidence`` and ``floor``, so both apply the same policy.
    ``every_group`` also keeps the best candidate of each group of overlapping candidates that
    no kept one overlaps, when it reaches ``floor``.
    """
    ranked = sorted(scored, key=lambda c: (-c.rank, c.lo, c.pattern.entry_index))
    kept = [c for c in ranked[:1] if c.rank >= floor] + [
        c for c in ranked[1:]
        if c.rank >= min_confidence or (
            c.score >= 0.95 and sum(w not in LIGHT_WORDS for w in c.pattern.keyset) >= 2
        )
    ]
    if every_group:
        for cand in ranked:
            if cand.rank >= floor and all(
                other.hi < cand.lo or other.lo > cand.hi for other in kept
            ):
                kept.append(cand)
        kept.sort(key=lambda c: (-c.rank, c.lo, c.pattern.entry_index))
    return kept


def _drop_contained(cands: list[_Candidate]) -> list[_Candidate]:
    """Drop candidates whose matched tokens are all part of a longer candidate ("throw in"
    inside "throw in the towel"): the longer idiom is the more specific reading."""
    sets = [frozenset(c.positions) for c in cands]
    return [c for c, mine in zip(cands, sets) if not any(mine < other for other in sets)]


def _drop_shorter_variants(cands: list[_Candidate]) -> list[_Candidate]:
    """Drop a match of an entry inside another match of the same entry: "sharp as a needle"
    inside "as sharp as a needle" (:func:`_written_variants`) is no second idiom."""
    entries = [c.pattern.entry_index for c in cands]
    if len(set(entries)) == len(entries):
        return cands
    sets = [frozenset(c.positions) for c in cands]
    return [c for c, entry, mine in zip(cands, entries, sets)
            if not any(e == entry and mine < other for e, other in zip(entries, sets))]


def _drop_light_overlaps(cands: list[_Candidate]) -> list[_Candidate]:
    """Drop candidates made only of light words ("turn to") that overlap one with a content
    word ("a blind eye was turned to …" is "turn a blind eye") and at least as many words: a
    longer idiom of light words ("at the end of the day") is not outweighed by a shorter one
    whose words only co-occur around it ("won … the day")."""
    light = [all(w in LIGHT_WORDS for w in c.pattern.required) for c in cands]
    return [
        c for c, is_light in zip(cands, light)
        if not is_light or not any(
            not other_light and not (o.hi < c.lo or o.lo > c.hi)
            and len(o.pattern.required) >= len(c.pattern.required)
            for o, other_light in zip(cands, light)
        )
    ]


def _drop_overlaps(ranked: list[_Candidate]) -> list[_Candidate]:
    """Keep candidates in rank order, skipping any whose span overlaps a kept one."""
    kept: list[_Candidate] = []
    for cand in ranked:
        if all(cand.hi < k.lo or cand.lo > k.hi for k in kept):
            kept.append(cand)
    return kept


@register_matcher(NAME)
def make_lexicon_matcher(lexicon: Lexicon, **params) -> LexiconMatcher:
    return LexiconMatcher(lexicon, **params)
