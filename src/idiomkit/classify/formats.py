"""What the classifier reads: one :class:`Item` per candidate, rendered by an input format.

The AStitch paper's formats (Table 4) vary two things: the context (target sentence alone, or
previous + target + next concatenated) and whether the expression follows as a second segment
after ``[SEP]``. Ours add two things the literature suggests helps:

- ``span``: pool the expression's own token states beside the sentence's (one forward pass per
  sentence serves every candidate in it: what ``idiomkit analyze`` runs);
- ``span+mwe``: the same, with the expression as a second segment too;
- ``definition``: the expression and its dictionary definition as the second segment (IDEM's
  best emotion input added the definition), pooled over the span.

``paraphrase`` is AStitch Task 1B: the target sentence, then one candidate meaning.

>>> item = Item("He kicked the bucket.", "kick the bucket", 1, span=(3, 20),
...             previous="He was old.", next="We cried.")
>>> render(item, "context+mwe")
('He was old. He kicked the bucket. We cried.', 'kick the bucket', (15, 32))
>>> render(item, "span")
('He kicked the bucket.', None, (3, 20))
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..errors import ConfigError


@dataclass(frozen=True)
class Format:
    """An input format: context or not, what the second segment holds, how states are pooled."""

    name: str
    context: bool
    #: None, "mwe", "definition" or "paraphrase"
    second: str | None
    #: "mean" (all tokens) or "span" (all tokens and the expression's tokens, concatenated)
    pooling: str
    description: str
    paper: bool = False


FORMATS: dict[str, Format] = {f.name: f for f in (
    Format("sentence", False, None, "mean", "target sentence", paper=True),
    Format("context", True, None, "mean", "previous + target + next", paper=True),
    Format("sentence+mwe", False, "mwe", "mean", "target sentence [SEP] expression", paper=True),
    Format("context+mwe", True, "mwe", "mean", "context [SEP] expression", paper=True),
    Format("span", False, None, "span", "target sentence, pooled over the expression too"),
    Format("span+mwe", False, "mwe", "span",
           "target sentence [SEP] expression, pooled over the expression too"),
    Format("definition", False, "definition", "span",
           "target sentence [SEP] expression: its definition, pooled over the expression"),
    Format("paraphrase", False, "paraphrase", "mean",
           "target sentence [SEP] candidate meaning (AStitch Task 1B)", paper=True),
)}


def get_format(name: str) -> Format:
    """The named format, or a coded error listing the valid names."""
    if name not in FORMATS:
        raise ConfigError("E460", f"Unknown input format '{name}'. Available: "
                          f"{', '.join(FORMATS)}.")
    return FORMATS[name]


@dataclass(frozen=True)
class Item:
    """One candidate to classify.

    ``label`` is 1 for figurative (idiomatic) use and 0 for literal, ``None`` when unknown (for
    Task 1B: 1 when ``second`` is the right meaning). ``span`` is the expression's character
    offsets in ``text`` where known.
    """

    text: str
    idiom: str
    label: int | None = None
    span: tuple[int, int] | None = None
    previous: str = ""
    next: str = ""
    #: the candidate meaning (Task 1B) or any other explicit second segment
    second: str | None = None
    definition: str | None = None
    id: str = ""
    source: str = ""
    language: str = "EN"
    meta: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)


def render(item: Item, fmt: Format | str) -> tuple[str, str | None, tuple[int, int] | None]:
    """``(first segment, second segment or None, span in the first segment or None)``."""
    fmt = get_format(fmt) if isinstance(fmt, str) else fmt
    first, offset = item.text, 0
    if fmt.context:
        before = item.previous.strip()
        after = item.next.strip()
        if before:
            offset = len(before) + 1
        first = " ".join(part for part in (before, item.text, after) if part)
    span = None
    if item.span is not None:
        span = (item.span[0] + offset, item.span[1] + offset)
    second: str | None = None
    if fmt.second == "mwe":
        second = item.idiom
    elif fmt.second == "definition":
        second = f"{item.idiom}: {item.definition}" if item.definition else item.idiom
    elif fmt.second == "paraphrase":
        second = item.second or ""
    return first, second, span
