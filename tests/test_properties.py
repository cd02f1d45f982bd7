"""Property tests for the default finder: span invariants, batch independence, input errors."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from idiomkit import Finder
from idiomkit.errors import InputError
from idiomkit.lexicon import load_lexicon

LEXICON = load_lexicon()
IDIOMS = sorted({entry.idiom for entry in LEXICON})
LEXICON_WORDS = sorted({word for idiom in IDIOMS for word in idiom.split()})
#: words that fill idiom slots or change their form in running text
EXTRA_WORDS = [
    "my", "his", "her", "their", "its", "our", "your", "John's", "the kids'", "Mary’s",
    "himself", "herself", "themselves", "was", "were", "been", "has", "spilled", "spilt",
    "bit", "went", "jotted", "can't", "cannot", "can’t", "it's", "it’s", "don't", "not",
    "whole", "blatant", "very", "the", "a", "an", "and", "but", "'s", "’s", "'", "’",
]
SEPARATORS = [" ", " ", " ", " ", "  ", "-", "- ", " - ", ", ", ". ", "; ", "! ", "? ", "'",
              "’", "\n", "\t", " — ", "–", " (", ") ", '"', "“", "”", "...", "/"]
PUNCT = "-'’‘`´—–.,;:!?\"“”()[]{}…/\\&*#@_"

SETTINGS = settings(
    max_examples=150,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@pytest.fixture(scope="module")
def finder() -> Finder:
    return Finder(lexicon=LEXICON)


@pytest.fixture(scope="module")
def nested_finder() -> Finder:
    return Finder(lexicon=LEXICON, keep_nested=True)


# --- strategies -----------------------------------------------------------------------------
_chars = st.one_of(
    st.characters(codec="utf-8"),
    st.sampled_from(list(PUNCT)),
    st.sampled_from(list("abcdefghijklmnopqrstuvwxyz ABCDE  éüßİı\u0301\u200b\u00a0")),
)
unicode_text = st.text(alphabet=_chars, min_size=0, max_size=80)

_word = st.one_of(st.sampled_from(LEXICON_WORDS), st.sampled_from(EXTRA_WORDS))


def _cased(word: str, how: int) -> str:
    return (word, word.upper(), word.title(), word.lower())[how]


@st.composite
def lexicon_sentences(draw) -> str:
    """Sentences of lexicon words with varied separators, case and an embedded idiom."""
    n = draw(st.integers(min_value=1, max_value=14))
    parts: list[str] = []
    for _ in range(n):
        word = draw(_word)
        parts.append(_cased(word, draw(st.integers(0, 3))))
        parts.append(draw(st.sampled_from(SEPARATORS)))
    if draw(st.booleans()):
        idiom = draw(st.sampled_from(IDIOMS))
        if draw(st.booleans()):
            idiom = idiom.replace("one's", draw(st.sampled_from(["his", "their", "John's",
                                                                    "the kids’"])))
        if draw(st.booleans()):
            idiom = idiom.replace("'", "’")
        idiom = _cased(idiom, draw(st.integers(0, 3)))
        at = draw(st.integers(min_value=0, max_value=len(parts)))
        parts.insert(at, f" {idiom} ")
    if draw(st.booleans()):
        parts.append(draw(st.sampled_from([".", "!", "?", "", "…"])))
    return "".join(parts)


any_text = st.one_of(unicode_text, lexicon_sentences(), st.text(min_size=1, max_size=40))
nonblank_text = any_text.filter(lambda t: t.strip() != "")
_whitespace = st.sampled_from(list(" \t\n\r\x0b\x0c\u00a0\u1680\u2000\u2003\u2028\u2029\u3000"))
blank_text = st.text(alphabet=_whitespace, min_size=0, max_size=10)


def _key(doc) -> list[dict]:
    return [span.to_dict() for span in doc.idioms]


# --- (a) span invariants --------------------------------------------------------------------
def _check_spans(text: str, doc) -> None:
    assert doc.text == text
    for span in doc.idioms:
        assert isinstance(span.start, int) and isinstance(span.end, int)
        assert 0 <= span.start < span.end <= len(text), (span, len(text))
        assert text[span.start:span.end] == span.text, span
        assert span.idiom, span
        assert span.token_offsets, span
        for a, b in span.token_offsets:
            assert span.start <= a < b <= span.end, (span, (a, b))
            assert text[a:b].strip() != "", (span, (a, b))


@SETTINGS
@given(text=nonblank_text)
def test_spans_index_the_text(finder, text):
    _check_spans(text, finder.find(text))


@SETTINGS
@given(text=nonblank_text)
def test_nested_spans_index_the_text(nested_finder, text):
    _check_spans(text, nested_finder.find(text))


@SETTINGS
@given(text=lexicon_sentences().filter(lambda t: t.strip() != ""))
def test_span_ends_are_its_first_and_last_token(finder, text):
    for span in finder.find(text).idioms:
        offsets = sorted(span.token_offsets)
        assert offsets[0][0] == span.start, span
        assert max(b for _, b in offsets) == span.end, span


@SETTINGS
@given(text=lexicon_sentences().filter(lambda t: t.strip() != ""))
def test_default_spans_do_not_overlap(finder, text):
    spans = sorted(finder.find(text).idioms, key=lambda s: s.start)
    for left, right in zip(spans, spans[1:], strict=False):
        assert left.end <= right.start, (left, right)


def test_embedded_idiom_spans_are_found(finder):
    # Sanity check that the sentence strategy exercises real matches, not only empty results.
    text = "Well, she spilled the beans - and then CALLED MY BLUFF’s end."
    doc = finder.find(text)
    assert doc.idioms
    _check_spans(text, doc)


# --- (b) batch independence -----------------------------------------------------------------
@SETTINGS
@given(
    texts=st.lists(nonblank_text, min_size=1, max_size=8),
    sizes=st.lists(st.integers(min_value=1, max_value=5), min_size=1, max_size=8),
)
def test_find_many_matches_find_in_any_chunking(finder, texts, sizes):
    single = [_key(finder.find(t)) for t in texts]
    assert [_key(d) for d in finder.find_many(texts)] == single
    assert [_key(d) for d in finder.find_many(iter(texts))] == single
    chunked: list = []
    i = 0
    k = 0
    while i < len(texts):
        size = sizes[k % len(sizes)]
        chunked.extend(_key(d) for d in finder.find_many(texts[i:i + size]))
        i += size
        k += 1
    assert chunked == single


@SETTINGS
@given(texts=st.lists(nonblank_text, min_size=1, max_size=6), target=nonblank_text)
def test_result_does_not_depend_on_previous_texts(finder, texts, target):
    alone = _key(finder.find(target))
    after = list(finder.find_many([*texts, target]))
    assert _key(after[-1]) == alone
    before = list(finder.find_many([target, *texts]))
    assert _key(before[0]) == alone
    reversed_docs = list(finder.find_many(list(reversed(texts))))
    assert [_key(d) for d in reversed(reversed_docs)] == [_key(finder.find(t)) for t in texts]
    assert _key(finder.find(target)) == alone


# --- (c) errors -----------------------------------------------------------------------------
@SETTINGS
@given(text=nonblank_text)
def test_find_never_raises_for_nonblank_text(finder, text):
    doc = finder.find(text)
    assert isinstance(doc.idioms, list)


@SETTINGS
@given(text=blank_text)
def test_blank_text_raises_e101(finder, text):
    with pytest.raises(InputError) as info:
        finder.find(text)
    assert info.value.code == "E101"


@pytest.mark.parametrize("text", ["", " ", "\n", "\t \r\n", "\u00a0", "\u3000 "])
def test_blank_text_examples_raise_e101(finder, text):
    with pytest.raises(InputError) as info:
        finder.find(text)
    assert info.value.code == "E101"
