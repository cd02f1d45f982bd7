"""Document and Span: what every stage reads and adds to, with a versioned JSON form.

>>> doc = Document("He spilled the beans.")
>>> doc.idioms.append(Span(3, 20, "spilled the beans", idiom="spill the beans", idiom_id="slide-4123"))
>>> Document.from_dict(doc.to_dict()) == doc
True
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from .errors import InputError

#: Version of the Document JSON contract (DESIGN.md, "Contracts worth keeping stable").
SCHEMA_VERSION = 1


@dataclass
class Span:
    """One idiom occurrence: character offsets into the text plus what stages added."""

    start: int
    end: int
    text: str
    idiom: str = ""
    idiom_id: str = ""
    #: how closely the text follows the idiom's dictionary form (1 = exactly)
    match_score: float = 0.0
    #: the finder's probability that this is the idiom the text means (its ranking key)
    confidence: float | None = None
    p_figurative: float | None = None
    label: str | None = None
    definition: str | None = None
    source: str = ""
    #: which component (and version) produced the span
    component: str = ""
    #: character offsets of each matched token, for highlighting discontinuous matches
    token_offsets: list[tuple[int, int]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["token_offsets"] = [list(pair) for pair in self.token_offsets]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Span:
        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        known["token_offsets"] = [tuple(p) for p in known.get("token_offsets", [])]
        return cls(**known)


@dataclass
class Document:
    """A text and the idioms found in it (ranked: best first)."""

    text: str
    idioms: list[Span] = field(default_factory=list)
    emotion: dict[str, Any] | None = None
    id: Any = None
    meta: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {}
        if self.id is not None:
            data["id"] = self.id
        data["text"] = self.text
        data["idioms"] = [span.to_dict() for span in self.idioms]
        data["emotion"] = self.emotion
        data["version"] = SCHEMA_VERSION
        if self.meta:
            data["meta"] = self.meta
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Document:
        version = data.get("version", SCHEMA_VERSION)
        if version != SCHEMA_VERSION:
            raise InputError(
                "E110",
                f"Document JSON version {version} is not supported (this idiomkit reads "
                f"version {SCHEMA_VERSION}). Re-run the pipeline with this idiomkit version.",
            )
        return cls(
            text=data["text"],
            idioms=[Span.from_dict(s) for s in data.get("idioms", [])],
            emotion=data.get("emotion"),
            id=data.get("id"),
            meta=data.get("meta", {}),
        )
