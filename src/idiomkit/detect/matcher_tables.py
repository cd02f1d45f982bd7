"""Precomputed compile tables of the lexicon matcher, so a fresh process starts fast.

Compiling the matcher asks lemminflect for every form of every idiom word. Loading
lemminflect's tables and those thousands of calls take most of a cold ``idiomkit find``
(about 0.8 of 1.3 s). Their answers depend only on the idiom strings, the matcher's code and
the lemminflect and breame versions, so ``idiomkit lexicon build`` stores them for the bundled
lexicon's idioms in ``detect/data/matcher_tables.json.gz``:

- ``items``: an idiom's pattern items, one list per variant (``_compile_items``);
- ``forms``: an idiom word's surface forms (:func:`.variants.word_forms`);
- ``verb_forms``: regular verb endings for a phrasal idiom's first word
  (:func:`.variants.noun_as_verb_forms`);
- ``readings``: lemminflect's lemmas by part of speech of each pattern's first word.

The file carries a fingerprint of what its answers depend on. A file whose fingerprint does
not match (the code or a pinned library changed and nobody rebuilt it) is ignored: the matcher
computes everything as before, only slower. An idiom missing from the tables (a user's
``--lexicon``) is computed too. A test checks the bundled file against a fresh computation.
"""

from __future__ import annotations

import gzip
import hashlib
import json
from dataclasses import dataclass, field
from functools import cache
from importlib import metadata, resources
from pathlib import Path

BUNDLED_TABLES = "matcher_tables.json.gz"
#: the modules whose code decides the tables' contents
_SOURCES = ("variants.py", "lexicon_matcher.py")
_LIBRARIES = ("lemminflect", "breame")


@dataclass
class MatcherTables:
    """Answers the matcher's compile step would otherwise compute (module docstring)."""

    items: dict[str, list] = field(default_factory=dict)
    forms: dict[str, list[str]] = field(default_factory=dict)
    verb_forms: dict[str, list[str]] = field(default_factory=dict)
    readings: dict[str, dict[str, list[str]]] = field(default_factory=dict)

    def to_dict(self) -> dict:
        return {"fingerprint": fingerprint(), "items": self.items, "forms": self.forms,
                "verb_forms": self.verb_forms, "readings": self.readings}


def bundled_tables_path() -> Path:
    return Path(str(resources.files("idiomkit.detect") / "data" / BUNDLED_TABLES))


@cache
def fingerprint() -> str:
    """sha256 over the matcher's code (line endings normalised) and the library versions."""
    digest = hashlib.sha256()
    package = resources.files("idiomkit.detect")
    for name in _SOURCES:
        digest.update(package.joinpath(name).read_bytes().replace(b"\r\n", b"\n"))
    for library in _LIBRARIES:
        digest.update(f"{library}=={metadata.version(library)}".encode())
    return digest.hexdigest()


def save_tables(tables: MatcherTables, path: str | Path) -> Path:
    """Write ``tables`` as gzipped JSON (byte-identical for identical tables)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(tables.to_dict(), ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    path.write_bytes(gzip.compress(text.encode("utf-8"), mtime=0))
    return path


def read_tables(path: str | Path) -> tuple[str, MatcherTables]:
    """The fingerprint a tables file was written with, and its tables."""
    data = json.loads(gzip.decompress(Path(path).read_bytes()))
    return data["fingerprint"], MatcherTables(
        items=data["items"], forms=data["forms"], verb_forms=data["verb_forms"],
        readings=data["readings"])


def current_tables(path: str | Path) -> MatcherTables:
    """The tables in ``path`` when they are current; empty tables (compute everything) when
    the file is missing, unreadable or made for other code or library versions."""
    try:
        stamp, tables = read_tables(path)
    except (OSError, ValueError, KeyError, EOFError):
        return MatcherTables()
    return tables if stamp == fingerprint() else MatcherTables()


@cache
def bundled_tables() -> MatcherTables:
    """The bundled tables (:func:`current_tables`), read once per process."""
    return current_tables(bundled_tables_path())
