"""The lexicon entry schema."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

#: ``source`` of the entries idiomkit's curated supplement adds to SLIDE
SUPPLEMENT_SOURCE = "idiomkit"


@dataclass(frozen=True)
class LexiconEntry:
    """One idiom in a lexicon.

    ``idiom`` is the canonical (dictionary) form, with slot words such as ``one's``,
    ``someone`` or ``something`` where the idiom takes a filler.
    """

    id: str
    idiom: str
    definition: str | None = None
    sentiment: str | None = None
    source: str = ""
    license: str = ""
    url: str | None = None
    #: SLIDE marks some entries as better filtered out (not idiomatic enough)
    filter_out: bool = False
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        if not data["extra"]:
            del data["extra"]
        return data
