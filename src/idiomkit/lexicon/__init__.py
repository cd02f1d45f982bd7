"""Idiom lexicons: the bundled SLIDE + Wiktionary lexicon and user lexicons."""

from .entry import LexiconEntry
from .io import BUNDLED_LEXICON, Lexicon, load_lexicon

__all__ = ["BUNDLED_LEXICON", "Lexicon", "LexiconEntry", "load_lexicon"]
