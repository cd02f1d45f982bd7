"""Word forms and slot words: what an idiom's written form may look like in running text.

Inflections come from lemminflect (every lemma of a word, every part of speech), so "spill"
also finds "spilt" and "spilling", and "spilt milk" finds "spilled milk". Every form also has
its British or American spelling (breame's lists), so "with flying colors" finds "passed with
flying colours" and "grey area" finds "a gray area". Closed-class words (prepositions,
particles, pronouns…) match only themselves.
"""

from __future__ import annotations

from functools import cache

from breame.data.spelling_constants import (
    AMERICAN_ENGLISH_SPELLINGS,
    BRITISH_ENGLISH_SPELLINGS,
)

from ..text.inflect import lemminflect

ARTICLES = frozenset({"a", "an", "the"})
DETERMINERS = ARTICLES | frozenset(
    {"this", "that", "these", "those", "some", "any", "no", "every", "each", "another",
     "such", "what", "which", "whose", "all", "both", "either", "neither", "much", "many",
     "more", "most", "few", "several", "one"}
)
POSSESSIVES = frozenset(
    {"my", "your", "his", "her", "its", "our", "their", "thy", "one's", "'s", "whose"}
)
OBJECT_PRONOUNS = frozenset({"me", "you", "him", "her", "it", "us", "them", "one"})
SUBJECT_PRONOUNS = frozenset({"i", "you", "he", "she", "it", "we", "they"})
REFLEXIVES = frozenset(
    {"myself", "yourself", "himself", "herself", "itself", "oneself", "ourselves",
     "yourselves", "themselves", "themself"}
)
AUXILIARIES = frozenset(
    {"be", "is", "are", "was", "were", "been", "being", "am", "get", "got", "gets", "gotten",
     "getting", "have", "has", "had", "having", "will", "would", "shall", "should", "can",
     "could", "may", "might", "must", "do", "does", "did", "not", "never"}
)
#: words that mark a clause boundary when they sit between an idiom's words
CONJUNCTIONS = frozenset({"and", "or", "but", "because", "while", "when", "if", "although",
                          "though", "since", "so", "then", "whereas", "until", "after"})
#: particles of phrasal verbs, which move ("pour one's heart out" / "pour out one's heart")
PARTICLES = frozenset({"out", "up", "down", "off", "in", "on", "away", "back", "over",
                       "around", "round", "through", "about", "along", "aside", "apart",
                       "together", "forward", "ahead"})
_PLAIN_PREPOSITIONS = frozenset(
    {"of", "to", "for", "with", "at", "from", "into", "onto", "upon", "under", "against",
     "between", "without", "within", "like", "off", "per", "via"}
)
#: prepositions that end an idiom before its object ("make a beeline for something"); the
#: particles among them ("on", "over", "out") head a preposition phrase there
PREPOSITIONS = _PLAIN_PREPOSITIONS | frozenset(
    {"on", "in", "over", "through", "about", "around", "out", "by", "after"}
)
#: slot words in dictionary forms of idioms
SOMEONE = frozenset({"someone", "somebody", "something", "sb", "sth", "somewhere", "anyone"})
ONE = frozenset({"one"}) | SOMEONE
FUNCTION_WORDS = (
    DETERMINERS | POSSESSIVES | OBJECT_PRONOUNS | SUBJECT_PRONOUNS | REFLEXIVES | PARTICLES
    | CONJUNCTIONS
    | _PLAIN_PREPOSITIONS
    | frozenset({"than", "as", "not", "nor", "yet", "there", "here", "how", "who", "whom",
                 "where", "why", "very", "too", "just", "only", "even", "still", "ever", "n't"})
)
#: particles that are also verbs ("she backed out", "they rounded up")
_VERBAL_PARTICLES = frozenset({"back", "round", "down", "out", "up"})
#: "step into the limelight" realises "in the limelight"
_PREPOSITION_VARIANTS = {"in": {"into"}, "on": {"onto", "upon"}}
#: clitics in an idiom's dictionary form ("it's about time" is also "it is about time")
_CLITIC_FORMS = {
    "'s": frozenset({"'s", "is", "has"}),
    "'d": frozenset({"'d", "would", "had"}),
}
_EXTRA_FORMS = {
    "be": ("am", "is", "are", "was", "were", "been", "being", "be", "'s", "'re", "'m"),
    "have": ("have", "has", "had", "having", "'ve"),
    "will": ("will", "'ll", "wo"),
    "would": ("would", "'d"),
    "not": ("not", "n't", "no"),
    "can": ("can", "ca", "could"),
}


#: lemminflect's tags of comparatives and superlatives
_DEGREE_TAGS = frozenset({"JJR", "JJS", "RBR", "RBS"})


def _same_stem(form: str, word: str) -> bool:
    """Whether ``form`` is a regular form of ``word`` rather than a suppletive one ("bigger"
    of "big", not "better" of "good"): the same first two letters.

    >>> _same_stem("bigger", "big"), _same_stem("best", "good"), _same_stem("elder", "old")
    (True, False, False)
    """
    return form[:2] == word[:2]


def _is_ing_form(word: str) -> bool:
    """Whether ``word`` is the -ing form of a verb ("going", "cutting"; not "spring", "king").

    >>> [_is_ing_form(w) for w in ("going", "cutting", "spring", "thing")]
    [True, True, False, False]
    """
    if not word.endswith("ing") or len(word) <= 4:
        return False
    lemmas = lemminflect.getAllLemmas(word).get("VERB", ())
    return bool(lemmas) and word not in lemmas


def _past_forms(word: str) -> frozenset[str]:
    """The past forms that count as ``word`` when it is a verb's past participle or past
    tense and no base form ("done" → done; "spilt" → spilled, spilt; "cut" → nothing, since
    it is its own base form).

    >>> sorted(_past_forms("done")), sorted(_past_forms("spilt")), sorted(_past_forms("cut"))
    (['done'], ['spilled', 'spilt'], [])
    """
    lemmas = lemminflect.getAllLemmas(word)
    verbs = lemmas.get("VERB", ())
    if not verbs or word in verbs or word in lemmas.get("NOUN", ()):
        return frozenset()
    forms = {word}
    for lemma in verbs:
        inflections = lemminflect.getAllInflections(lemma, upos="VERB")
        participle, tense = inflections.get("VBN", ()), inflections.get("VBD", ())
        if word in participle:
            forms.update(participle)
        elif word in tense:
            forms.update(participle + tense)
        else:
            return frozenset()
    return frozenset(f.lower() for f in forms)


@cache
def word_forms(word: str) -> frozenset[str]:
    """All surface forms (lower case) that count as ``word`` in text, in British and American
    spelling.

    >>> sorted(word_forms("spill"))
    ['spill', 'spilled', 'spilling', 'spills', 'spilt']
    >>> sorted(word_forms("colors"))
    ['color', 'colored', 'coloring', 'colors', 'colour', 'coloured', 'colouring', 'colours']
    >>> sorted(word_forms("of"))
    ['of']
    >>> sorted(word_forms("in"))  # "step into the limelight"
    ['in', 'into']
    >>> sorted(word_forms("going"))  # "have someone going" is not "have gone"
    ['going', 'goings']
    """
    forms = _same_spelling_forms(word.lower())
    return forms | {_OTHER_SPELLING[f] for f in forms if f in _OTHER_SPELLING}


def noun_as_verb_forms(word: str) -> frozenset[str]:
    """Regular verb endings for a word lemminflect knows only as a noun, for the verb of a
    phrasal idiom ("cotton to": "cottoned to"; "duke it out": "duked it out"); nothing for a
    word it knows as a verb, adjective or adverb.

    >>> sorted(noun_as_verb_forms("cotton")), sorted(noun_as_verb_forms("spill"))
    (['cotton', 'cottoned', 'cottoning', 'cottons'], [])
    """
    readings = lemminflect.getAllLemmas(word)
    if not word.isalpha() or word in FUNCTION_WORDS or set(readings) - {"NOUN"}:
        return frozenset()
    if lemminflect.getAllInflections(word, upos="VERB"):
        return frozenset()
    return frozenset(form.lower() for forms in
                     lemminflect.getAllInflectionsOOV(word, "VERB").values() for form in forms)


#: a word's spelling on the other side of the Atlantic ("colour" <-> "color")
_OTHER_SPELLING = {**AMERICAN_ENGLISH_SPELLINGS, **BRITISH_ENGLISH_SPELLINGS}


def spelled_alike(form: str, word: str) -> bool:
    """Whether ``form`` is ``word`` as written on either side of the Atlantic.

    >>> spelled_alike("colour", "color"), spelled_alike("colours", "color")
    (True, False)
    """
    return form == word or _OTHER_SPELLING.get(form) == word


def _same_spelling_forms(word: str) -> frozenset[str]:
    if word == "oneself":  # an idiom's final reflexive: any reflexive
        return REFLEXIVES
    if word in _CLITIC_FORMS:
        return _CLITIC_FORMS[word]
    if word == "would":
        # the conditional is the idiom's own ("I would" is not "I will"); "heads will roll"
        # still reads "heads would roll"
        return frozenset(_EXTRA_FORMS[word])
    if word in AUXILIARIES and word.endswith("ing"):
        # "being that" is not "was that"
        return frozenset({word})
    if _is_ing_form(word):
        # an -ing form in a dictionary form is fixed: "have someone going" is not "have gone",
        # "the cutting edge" not "the cut edge"; as a noun it takes a plural ("gut feelings")
        return frozenset({word, word + "s"})
    if word in FUNCTION_WORDS and word not in AUXILIARIES and word not in _VERBAL_PARTICLES:
        return frozenset({word} | _PREPOSITION_VARIANTS.get(word, set()))
    past = _past_forms(word)
    if past:
        # a past form in a dictionary form is fixed too: "well done" is not "well, it does",
        # "fed up" not "feeds up"; "spilt milk" still reads "spilled milk"
        return past
    forms = {word}
    lemmas = {word}
    for upos, values in lemminflect.getAllLemmas(word).items():
        # a comparative's other adjective is another word: "the best of both worlds" is not
        # "the good of both worlds", "worse for wear" not "ill for wear"
        lemmas.update(v for v in values if upos not in ("ADJ", "ADV") or _same_stem(v, word))
    if word not in _VERBAL_PARTICLES and word not in AUXILIARIES and (
            (lemmas - {word}) & FUNCTION_WORDS):
        # a noun made of a particle keeps its form: "ups and downs" is not "up and down"
        return frozenset({word})
    known = False
    for lemma in lemmas:
        for tag, values in lemminflect.getAllInflections(lemma).items():
            known = known or any(v != word for v in values)
            # degree forms only when regular: "big" reads "bigger", but "for good" is not
            # "for best", nor "the old guard" "the elder guard"
            forms.update(v for v in values if tag not in _DEGREE_TAGS or _same_stem(v, word))
        if lemma in _EXTRA_FORMS:
            forms.update(_EXTRA_FORMS[lemma])
    if word in _EXTRA_FORMS:
        forms.update(_EXTRA_FORMS[word])
    if not known and len(forms) == 1 and word.isalpha():
        # Unknown to lemminflect ("pleaser", "cop"): regular noun and verb endings.
        for upos in ("NOUN", "VERB"):
            for values in lemminflect.getAllInflectionsOOV(word, upos).values():
                forms.update(values)
    return frozenset(f.lower() for f in forms)
