"""A fast, offset-keeping English tokenizer for matching.

It splits words, numbers, clitics (``n't``, ``'s``, ``'ll`` …) and punctuation, and drops
hyphens and dashes inside compounds so that "well-known", "well known" and "well–known" give the
same tokens. Each token keeps its character offsets into the original text and a normal form
(lower case, straight apostrophes, clitics expanded where unambiguous).

>>> [(t.text, t.norm) for t in tokenize("She can't spill the beans—yet.")]
[('She', 'she'), ('ca', 'can'), ("n't", 'not'), ('spill', 'spill'), ('the', 'the'), ('beans', 'beans'), ('yet', 'yet'), ('.', '.')]
>>> t = tokenize("Kids' toys")[1]
>>> (t.text, t.norm, t.start, t.end)
("'", "'s", 4, 5)

Text tokenised beforehand (as in many corpora) keeps its clitics apart; they read the same:

>>> [t.norm for t in tokenize("He pulled his sister 's leg , they 're sure .")]
['he', 'pulled', 'his', 'sister', "'s", 'leg', ',', 'they', 'are', 'sure', '.']
>>> [t.norm for t in tokenize("a hornets ' nest")]
['a', 'hornets', "'s", 'nest']
"""

from __future__ import annotations

import re
from typing import NamedTuple

# A word is a run of letters/digits, possibly with inner apostrophes ("o'clock", "don't").
# Hyphens and dashes are separators that produce no token. Any other non-space character is a
# one-character punctuation token.
# "â\x80\x94" is a dash mis-decoded as Latin-1 (common in scraped and generated corpora).
# A clitic standing apart ("sister 's", "they 're": text tokenised beforehand) is one token.
_APOSTROPHE_OR_CLITIC = r"['’](?:(?i:s|re|ll|ve|d|m)(?![^\W_]))?"
_TOKEN_RE = re.compile(
    r"[^\W_]+(?:['’][^\W_]+)*|" + _APOSTROPHE_OR_CLITIC + r"|[^\w\s\-‐‑‒–—―]")
# The slower pattern, used only when a text contains such mis-decoded dashes.
_MOJIBAKE_TOKEN_RE = re.compile(
    r"â[\x80-\x9f][\x80-\xbf]?|(?:[^\W_â]|â(?![\x80-\x9f]))+(?:['’][^\W_]+)*|"
    + _APOSTROPHE_OR_CLITIC + r"|[^\w\s\-‐‑‒–—―]"
)
_CLITIC_RE = re.compile(r"^(.+?)(['’](?:s|re|ll|ve|d|m))$", re.IGNORECASE)
_APOSTROPHES = str.maketrans({"’": "'", "‘": "'"})
_NEGATED_STEMS = {"ca": "can", "wo": "will", "sha": "shall", "ai": "ain"}
_CLITIC_NORMS = {"'re": "are", "'ll": "will", "'ve": "have", "'m": "am"}


class Token(NamedTuple):
    """A token: surface text, normal form, character offsets ``[start, end)``."""

    text: str
    norm: str
    start: int
    end: int


def tokenize(text: str) -> list[Token]:
    """Split ``text`` into tokens with character offsets (see module docstring)."""
    tokens: list[Token] = []
    append = tokens.append
    new = tuple.__new__  # skips the NamedTuple constructor's Python frame: ~2x faster here
    regex = _MOJIBAKE_TOKEN_RE if "â" in text else _TOKEN_RE
    for m in regex.finditer(text):
        piece = m.group()
        start, end = m.span()
        lower = piece.lower()
        if "'" not in lower and "’" not in lower and lower != "cannot" and lower[0] != "â":
            append(new(Token, (piece, lower, start, end)))
        elif lower[0] == "â" and len(piece) > 1 and "\x80" <= piece[1] <= "\x9f":
            append(Token(piece, "—", start, end))
        elif lower == "cannot":
            append(Token(piece[:3], "can", start, start + 3))
            append(Token(piece[3:], "not", start + 3, end))
        elif lower[0] in "'’" and len(piece) > 1:  # a clitic standing apart
            lower = lower.translate(_APOSTROPHES)
            append(Token(piece, _CLITIC_NORMS.get(lower, lower), start, end))
        elif len(piece) > 2:
            lower = lower.translate(_APOSTROPHES)
            if lower.endswith("n't") and len(lower) > 3:
                stem = lower[:-3]
                cut = len(piece) - 3
                append(Token(piece[:cut], _NEGATED_STEMS.get(stem, stem), start, start + cut))
                append(Token(piece[cut:], "not", start + cut, end))
                continue
            clitic = _CLITIC_RE.match(lower)
            if clitic:
                cut = len(clitic.group(1))
                ending = clitic.group(2)
                append(Token(piece[:cut], lower[:cut], start, start + cut))
                append(Token(piece[cut:], _CLITIC_NORMS.get(ending, ending), start + cut, end))
                continue
            append(Token(piece, lower, start, end))
        elif piece in ("'", "’"):
            # A bare apostrophe right after a word ending in "s" is a plural possessive, also
            # standing apart between two words in text tokenised beforehand ("hornets ' nest").
            prev = tokens[-1] if tokens else None
            if prev is not None and prev.norm.endswith("s") and (
                prev.end == start
                or (text[prev.end:start] == " " and text[end:end + 1] == " "
                    and text[end + 1:end + 2].isalpha())
            ):
                append(Token(piece, "'s", start, end))
            else:
                append(Token(piece, "'", start, end))
        else:
            append(Token(piece, lower.translate(_APOSTROPHES), start, end))
    return tokens
