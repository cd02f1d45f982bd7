"""Cut a long text into pieces of whole sentences that fit an encoder's window.

The trained models read at most ``max_length`` tokens (96 for the shipped ones); a paragraph
on one input line is longer. :func:`pieces` cuts it after sentence ends, so the span tagger and
the figurative classifier read every part of it, each candidate within the sentences around it.
"""

from __future__ import annotations

import bisect
import re

#: characters per encoder token budgeted when a long text is cut into pieces (English
#: averages 4-5 characters per word piece; 3 leaves room)
CHARS_PER_TOKEN = 3
_SENTENCE_END = re.compile(r"(?<=[.!?…])[\"'’”)\]]*\s+")


def pieces(text: str, max_tokens: int) -> list[tuple[int, str]]:
    """``(start, piece)``: ``text`` cut after sentence ends into pieces of at most
    ``max_tokens * CHARS_PER_TOKEN`` characters where it can (a longer sentence stays whole).
    A short text is one piece.

    >>> pieces("One. Two two. Three.", 3)
    [(0, 'One.'), (5, 'Two two.'), (14, 'Three.')]
    >>> pieces("Short text.", 96)
    [(0, 'Short text.')]
    """
    max_chars = max_tokens * CHARS_PER_TOKEN
    if len(text) <= max_chars:
        return [(0, text)]
    bounds = [0] + [m.end() for m in _SENTENCE_END.finditer(text)] + [len(text)]
    out: list[tuple[int, str]] = []
    start = 0
    for previous, end in zip(bounds, bounds[1:]):
        if end - start > max_chars and previous > start:
            out.append((start, text[start:previous].rstrip()))
            start = previous
    out.append((start, text[start:].rstrip()))
    return [(s, piece) for s, piece in out if piece]


def piece_around(text: str, parts: list[tuple[int, str]], start: int, end: int
                 ) -> tuple[str, int]:
    """The pieces of ``text`` (``parts``, from :func:`pieces`, cut once per text) that hold
    ``[start, end)``, joined as in the text, and where they begin: the whole text when it is
    one piece.

    >>> text = "One. Two two. Three."
    >>> piece_around(text, pieces(text, 3), 5, 8)
    ('Two two.', 5)
    """
    if len(parts) == 1:
        return text, 0
    starts = [s for s, _ in parts]
    first = bisect.bisect_right(starts, start) - 1
    last = bisect.bisect_left(starts, end) - 1
    begin = parts[first][0]
    return text[begin:parts[last][0] + len(parts[last][1])], begin
