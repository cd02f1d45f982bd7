"""Build the bundled lexicon from SLIDE and IDEM's Wiktionary definitions.

Run ``idiomkit lexicon build`` (it calls :func:`build_lexicon`); the output
``src/idiomkit/lexicon/data/idioms.jsonl`` is committed, so users never need the sources.
The build is deterministic: same inputs, same bytes (its checksum is recorded in the
attribution file).
"""

from __future__ import annotations

import csv
import json
import re
from importlib import resources
from pathlib import Path

from ..datasets.paths import checksum, dataset_file, resolve_data_dir
from ..errors import DataError
from .entry import SUPPLEMENT_SOURCE, LexiconEntry

SLIDE_LICENSE = "CC BY-SA 3.0 (SLIDE, IBM Project Debater)"
WIKTIONARY_LICENSE = "CC BY-SA 4.0 (Wiktionary definitions, via IDEM)"
#: common idioms SLIDE lacks, with definitions written by the idiomkit developers
SUPPLEMENT_LICENSE = "MIT (idiomkit curated supplement)"
_SENTIMENT = {"positive": "positive", "negative": "negative", "neutral": "neutral"}
_ARTICLES = frozenset({"a", "an", "the"})
_SLOT_WORDS = {"someone's": "one's", "somebody's": "one's", "someone": "one", "somebody": "one"}


#: SLIDE flags 103 entries to filter out (it was built for sentiment analysis: too often literal
#: or too plain). These few are idioms in everyday figurative use ("just the tip of the
#: iceberg"), so the finder matches them and the classifier judges each use; SLIDE's flag is
#: kept in ``extra["slide_filter_out"]``.
MATCHED_DESPITE_SLIDE_FILTER = frozenset({
    "tip of the iceberg", "lion's share", "comfort zone", "gold mine", "hot air", "tug of war",
    "set one's sights on", "on the receiving end", "big picture", "out the window",
    "in the black", "on the money", "hot water", "deep water", "on the ball", "over one's head",
})


def build_entries(data_dir: str | Path | None = None) -> list[LexiconEntry]:
    """Join SLIDE's 5,000 idioms with IDEM's Wiktionary definitions, row by row."""
    root = resolve_data_dir(data_dir)
    slide_path = dataset_file(root, "slide", "idiomLexicon.tsv")
    idem_path = dataset_file(root, "idem", "idiom_lexicon.csv")
    with open(slide_path, encoding="utf-8", newline="") as handle:
        slide = list(csv.DictReader(handle, delimiter="\t"))
    with open(idem_path, encoding="utf-8", newline="") as handle:
        idem = list(csv.DictReader(handle))
    if len(slide) != len(idem):
        raise DataError(
            "E303", f"SLIDE has {len(slide)} rows but IDEM's lexicon has {len(idem)}; the build "
            "joins them row by row and needs the files as distributed."
        )
    entries = []
    for row_no, (s_row, i_row) in enumerate(zip(slide, idem)):
        if s_row["Idiom"] != i_row["Idiom"]:
            raise DataError(
                "E303", f"Row {row_no + 2}: SLIDE has {s_row['Idiom']!r} but IDEM's lexicon has "
                f"{i_row['Idiom']!r}; the files are not the distributed versions."
            )
        definition = (i_row.get("definition") or "").strip() or None
        idem_id = i_row.get("idiom_id") or ""
        extra = {"idem_id": int(float(idem_id))} if idem_id else {}
        idiom = s_row["Idiom"].strip()
        filter_out = s_row["FilterOut(X)"].strip().upper() == "X"
        if filter_out and idiom in MATCHED_DESPITE_SLIDE_FILTER:
            filter_out, extra = False, {**extra, "slide_filter_out": True}
        license_note = SLIDE_LICENSE + ("; " + WIKTIONARY_LICENSE if definition else "")
        entries.append(
            LexiconEntry(
                id=f"slide-{row_no:04d}",
                idiom=idiom,
                definition=definition,
                sentiment=_SENTIMENT.get(s_row["Maj. Label"].strip()),
                source="SLIDE" + ("+Wiktionary" if definition else ""),
                license=license_note,
                url=s_row["WiktionaryURL"].strip() or None,
                filter_out=filter_out,
                extra=extra,
            )
        )
    entries.extend(_supplement_entries({variant_key(e.idiom) for e in entries}))
    return entries


def variant_key(idiom: str) -> str:
    """What two dictionary forms of one idiom share: case, hyphens, articles, the slot
    word ("one's", "someone's") and British spelling (breame's lists) aside.

    >>> variant_key("The ball is in one's court") == variant_key("the ball is in someone's court")
    True
    >>> variant_key("wild goose chase") == variant_key("wild-goose chase")
    True
    >>> variant_key("with flying colours") == variant_key("with flying colors")
    True
    """
    from breame.data.spelling_constants import BRITISH_ENGLISH_SPELLINGS as american

    words = re.findall(r"[\w']+", idiom.lower().replace("-", " "))
    return " ".join(_SLOT_WORDS.get(w, american.get(w, w)) for w in words
                    if w not in _ARTICLES)


def supplement_path() -> Path:
    return Path(str(resources.files("idiomkit.lexicon") / "supplement.csv"))


def _supplement_entries(known: set[str]) -> list[LexiconEntry]:
    """Curated entries for common idioms SLIDE lacks ("pour one's heart out"); a row whose
    :func:`variant_key` SLIDE already has ("the last straw" for SLIDE's "last straw") is
    left out, so the finder names SLIDE's form."""
    with open(supplement_path(), encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    return [
        LexiconEntry(
            id=f"idiomkit-{row_no:04d}",
            idiom=row["idiom"].strip(),
            definition=row["definition"].strip() or None,
            source=SUPPLEMENT_SOURCE,
            license=SUPPLEMENT_LICENSE,
        )
        for row_no, row in enumerate(rows)
        if variant_key(row["idiom"]) not in known
    ]


def build_lexicon(output: str | Path, data_dir: str | Path | None = None) -> dict:
    """Write the bundled lexicon JSONL to ``output``; returns a summary."""
    entries = build_entries(data_dir)
    output = Path(output)
    output.parent.mkdir(parents=True, exist_ok=True)
    with open(output, "w", encoding="utf-8", newline="\n") as handle:
        for entry in entries:
            handle.write(json.dumps(entry.to_dict(), ensure_ascii=False, sort_keys=True) + "\n")
    root = resolve_data_dir(data_dir)
    return {
        "output": str(output),
        "entries": len(entries),
        "with_definition": sum(1 for e in entries if e.definition),
        "filter_out": sum(1 for e in entries if e.filter_out),
        "sources_checksum": checksum(
            [root / "slide" / "idiomLexicon.tsv", root / "idem" / "idiom_lexicon.csv",
             supplement_path()]
        ),
        "output_checksum": checksum([output]),
    }
