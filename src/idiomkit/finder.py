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
from .errors import InputError
from .lexicon import Lexicon, load_lexicon


class Finder:
    """Find idioms with a registered matcher and link them to their lexicon entry.

    Parameters are stored as given and validated when the matcher is built.
    """

    def __init__(
        self,
        method: str = "default",
        lexicon: Lexicon | str | Path | None = None,
        *,
        keep_nested: bool = False,
        **params,
    ) -> None:
        self.method = method
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
