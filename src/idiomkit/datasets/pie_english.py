"""PIE-English (Adewumi et al., LREC 2022): English sentences of 1,190 potential idiomatic
expressions, each sentence in one of 10 classes (Metaphor, Euphemism, Simile, Literal, …).

File ``pie_english/idiomscorpus.csv`` (see its ``SOURCE.md``): one token per row, header
``id,token,pos,class,meaning,idiomliteral``; a sample starts on a row with an ``id``. Samples
come in groups: a header sample that is the idiom itself with its ``meaning`` (e.g. "cold
feet" / "become scared"), then its example sentences. The 1,190 header samples are not
examples (they show the idiom, not a use of it); they give each following sentence its
``idiom`` and ``meta["meaning"]``. That leaves 18,984 sentence examples.

``label`` is ``"literal"`` for the class Literal (1,140 sentences) and ``"idiomatic"`` for the
nine figurative classes; ``meta["raw_label"]`` keeps the class. ``text`` is the tokens joined by
one space (the corpus is tokenised; its tokenisation is kept so the text matches the tokens),
``meta["span"]`` the idiom's offsets where :func:`~idiomkit.datasets._common.find_span` finds it.
Ids are ``"pie-<id>"`` with the corpus's sample id.

There is no official split: ``train``/``dev``/``test`` are a deterministic 80/10/10 split on a
hash of the sentence text (identical sentences always share a split); ``all`` is every sentence.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

from ..errors import DataError
from ._common import DERIVED_SPLITS, IDIOMATIC, LITERAL, in_split, read_csv_rows, span_meta
from .base import Example, register_dataset

FIGURATIVE_CLASSES = (
    "Metaphor", "Euphemism", "Simile", "Personification", "Paradox", "Parallelism",
    "Hyperbole", "Oxymoron", "Irony",
)
LABELS = {"Literal": LITERAL, **{name: IDIOMATIC for name in FIGURATIVE_CLASSES}}
_COLUMNS = ("id", "token", "pos", "class", "meaning", "idiomliteral")
_OPTIONAL = ("id", "pos", "class", "meaning", "idiomliteral")


class PieEnglishReader:
    """Reader for PIE-English: literal vs figurative (the nine figurative classes)."""

    name = "pie-english"
    splits = DERIVED_SPLITS

    def files(self, split: str) -> list[tuple[str, ...]]:
        return [("pie_english", "idiomscorpus.csv")]

    def read(self, paths: Sequence[Path], split: str) -> Iterator[Example]:
        idiom: dict | None = None
        for sample in read_samples(paths[0]):
            if sample["meaning"]:
                idiom = sample
                continue
            if idiom is None:
                raise DataError(
                    "E317",
                    f"PIE-English file '{paths[0]}', line {sample['line']}: a sentence comes "
                    "before any idiom header (a sample with a meaning). Restore the file "
                    "(see pie_english/SOURCE.md).",
                )
            text = " ".join(sample["tokens"])
            if not in_split(text, split):
                continue
            raw = sample["class"]
            if raw not in LABELS:
                raise DataError(
                    "E312",
                    f"PIE-English file '{paths[0]}', line {sample['line']}: unknown class "
                    f"{raw!r}. Expected one of {', '.join(LABELS)} (see pie_english/SOURCE.md).",
                )
            expression = " ".join(idiom["tokens"])
            yield Example(
                id=f"pie-{sample['id']}",
                text=text,
                idiom=expression,
                label=LABELS[raw],
                meta={
                    "raw_label": raw,
                    "meaning": idiom["meaning"],
                    **span_meta(text, expression),
                    "language": "EN",
                    "source": self.name,
                    "split": split,
                },
            )


def read_samples(path: Path) -> Iterator[dict]:
    """Samples of the token-per-row file: ``id``, ``tokens``, ``class``, ``meaning``, ``line``."""
    sample: dict | None = None
    for line, row in read_csv_rows(path, _COLUMNS, "PIE-English", allow_empty=_OPTIONAL):
        if row["id"].strip():
            if sample is not None:
                yield sample
            if not row["class"].strip():
                raise DataError(
                    "E317",
                    f"PIE-English file '{path}', line {line}: sample {row['id'].strip()} has no "
                    "class. Restore the file (see pie_english/SOURCE.md).",
                )
            sample = {
                "id": row["id"].strip(),
                "tokens": [row["token"]],
                "class": row["class"].strip(),
                "meaning": row["meaning"].strip(),
                "line": line,
            }
        elif sample is None:
            raise DataError(
                "E317",
                f"PIE-English file '{path}', line {line}: a token row before the first sample "
                "id. Restore the file (see pie_english/SOURCE.md).",
            )
        else:
            sample["tokens"].append(row["token"])
    if sample is not None:
        yield sample


register_dataset(PieEnglishReader())
