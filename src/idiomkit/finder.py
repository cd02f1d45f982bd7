"""The finder: text → Document with ranked, linked idioms.

>>> finder = Finder()
>>> doc = finder.find("He poured out his whole heart to a friend.")
>>> doc.idioms[0].idiom
"pour one's heart out"
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from .detect import create_matcher
from .document import Document
from .errors import InputError, check_param
from .lexicon import Lexicon, load_lexicon


class Finder:
    """Find idioms with a registered matcher and link them to their lexicon entry.

    ``min_confidence`` drops spans whose ``confidence`` (the default matcher's probability that
    the candidate is the idiom meant) is below it; 0 adds no filter to the matcher's own (the
    default matcher leaves out a sentence's best candidate under the scorer's calibrated
    ``floor``, which leaves plain words plain). Other parameters go to the
    matcher, stored as given and validated when it is built.
    """

    def __init__(
        self,
        method: str = "default",
        lexicon: Lexicon | str | Path | None = None,
        *,
        keep_nested: bool = False,
        min_confidence: float = 0.0,
        **params,
    ) -> None:
        check_param("Finder", "min_confidence", min_confidence,
                    isinstance(min_confidence, (int, float)) and 0 <= min_confidence <= 1,
                    "a float in [0, 1]")
        self.method = method
        self.min_confidence = float(min_confidence)
        self.lexicon = lexicon if isinstance(lexicon, Lexicon) else load_lexicon(lexicon)
        self.keep_nested = keep_nested
        self.params = params
        self.matcher = create_matcher(method, self.lexicon, keep_nested=keep_nested, **params)

    def find(self, text: str, id=None) -> Document:
        """Find the idioms in one text. Empty or blank text raises :class:`InputError`."""
        if not isinstance(text, str):
            raise InputError("E102", f"Text must be a string, got {type(text).__name__}.")
        if not text.strip():
            raise InputError("E101", "The text is empty or only whitespace; give some text.")
        spans = self.matcher.match(text)
        if self.min_confidence:
            spans = [s for s in spans
                     if s.confidence is None or s.confidence >= self.min_confidence]
        for span in spans:
            entry = self.lexicon.get(span.idiom_id)
            if entry is not None:
                span.definition = entry.definition
                span.source = entry.source
        return Document(text=text, idioms=spans, id=id)

    def find_many(self, texts: Iterable[str]) -> Iterator[Document]:
        """Find idioms in each text, in order (errors propagate; see ``idiomkit.io`` for batch)."""
        for text in texts:
            yield self.find(text)


_DEFAULT_FINDER: Finder | None = None


def find(text: str, **kwargs) -> Document:
    """Find idioms in ``text`` with the default finder (built once and reused)."""
    global _DEFAULT_FINDER
    if kwargs:
        return Finder(**kwargs).find(text)
    if _DEFAULT_FINDER is None:
        _DEFAULT_FINDER = Finder()
    return _DEFAULT_FINDER.find(text)
