"""Review proposed lexicon entries before they join the lexicon (``idiomkit lexicon review``).

An entry can harm the finder in three ways, and each is checked:

- it is another spelling of an entry the lexicon has (:func:`~.build.variant_key`: case,
  hyphens, articles, the slot word and British spelling aside): ``duplicate``;
- it holds a whole entry, or sits inside one, word for word (``contains``, ``inside``): "go
  to the mat for someone" beside "go to the mat" only adds a slot and competes with it
  (entries of light words only, "go to", are left out of this check);
- it matches plain words: the general text the scorer's commonness prior counts in
  (:mod:`idiomkit.detect.general_text`, never IDEM) shows how often and where, and IDEM
  train shows in how many sentences it is a candidate beside another gold idiom, which costs
  the IDEM metrics when it wins.

Flags point a reviewer at entries to read, with example sentences; they decide nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from .build import variant_key
from .io import Lexicon

#: matches per 10,000 general-text sentences from which an entry is flagged ``frequent``: a
#: phrase that common is plain words in much of the text it matches
FREQUENT_PER_10K = 5.0


def review_entries(
    proposed: Lexicon,
    base: Lexicon,
    general: Sequence[tuple[str, tuple[int, int] | None, str]] = (),
    idem: Sequence[tuple[str, str]] = (),
    *,
    examples: int = 3,
) -> list[dict[str, Any]]:
    """One report per proposed entry, in file order.

    ``general`` holds general-text sentences as :func:`~idiomkit.detect.general_text.
    general_sentences` gives them; ``idem`` holds ``(text, gold idiom)`` pairs. Each report
    has ``idiom``, ``duplicate_of``, ``contains``, ``inside`` (base idioms), ``general``
    (``matches``, ``per_10k``, ``examples``: up to ``examples`` matched sentences with the
    matched words), ``idem_other_gold`` (IDEM sentences where it is a candidate and another
    idiom is gold) and ``flags``.
    """
    from ..detect.general_text import collect_matches
    from ..detect.lexicon_matcher import LexiconMatcher
    from ..detect.scorer import LIGHT_WORDS

    base_keys: dict[str, list[str]] = {}
    for entry in base:
        base_keys.setdefault(variant_key(entry.idiom), []).append(entry.idiom)
    padded = [(f" {key} ", idioms) for key, idioms in base_keys.items()
              if " " in key and any(word not in LIGHT_WORDS for word in key.split())]
    matcher = LexiconMatcher(proposed, scorer=None, keep_nested=True)
    counts, found = collect_matches(matcher, general, examples=examples)
    idem_counts, _ = collect_matches(matcher, [(text, None, gold.lower()) for text, gold in idem])

    reports = []
    seen: dict[str, str] = {}
    for entry in proposed:
        key = variant_key(entry.idiom)
        mine = f" {key} "
        duplicate = list(base_keys.get(key, []))
        if key in seen:
            duplicate.append(seen[key])
        seen.setdefault(key, entry.idiom)
        contains = _flatten(idioms for other, idioms in padded if other != mine and other in mine)
        inside = _flatten(idioms for other, idioms in padded if other != mine and mine in other)
        idiom = entry.idiom.lower()
        matches = counts.get(idiom, 0)
        per_10k = round(10_000 * matches / len(general), 2) if general else 0.0
        report = {
            "idiom": entry.idiom,
            "duplicate_of": duplicate,
            "contains": contains,
            "inside": inside,
            "general": {"matches": matches, "per_10k": per_10k,
                        "examples": found.get(idiom, [])},
            "idem_other_gold": idem_counts.get(idiom, 0),
        }
        report["flags"] = review_flags(report)
        reports.append(report)
    return reports


def review_flags(report: dict[str, Any]) -> list[str]:
    """The flags of one report (see :func:`review_entries`).

    >>> review_flags({"duplicate_of": [], "contains": ["go to the mat"], "inside": [],
    ...               "general": {"per_10k": 7.5}, "idem_other_gold": 0})
    ['contains', 'frequent']
    """
    flags = [flag for flag, key in (("duplicate", "duplicate_of"), ("contains", "contains"),
                                    ("inside", "inside")) if report[key]]
    if report["general"]["per_10k"] >= FREQUENT_PER_10K:
        flags.append("frequent")
    if report["idem_other_gold"]:
        flags.append("idem")
    return flags


def _flatten(groups: Iterable[list[str]]) -> list[str]:
    return sorted({idiom for group in groups for idiom in group})


__all__ = ["FREQUENT_PER_10K", "review_entries", "review_flags"]
