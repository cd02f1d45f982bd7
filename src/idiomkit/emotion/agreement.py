"""Inter-annotator agreement on IDEM's manual validation (section 3.3): Cohen's kappa.

Two annotators judged the same 1,000 generated sentences with four 0/1 flags (incorrect
sentence, incorrect idiom usage, wrong emotion label, emotion label present in the sentence).
A sentence is "ideal" for an annotator when no flag is set; the paper reports kappa 0.62 on
that judgement over 1,047 sentences (the public files hold 1,000 of them).
"""

from __future__ import annotations

import csv
from collections import Counter
from collections.abc import Hashable, Sequence
from pathlib import Path

from ..datasets.paths import dataset_file, resolve_data_dir
from ..errors import DataError

FLAGS = ("Incorrect Sentence", "Incorrect Idiom Usage", "Wrong Emotion Label",
         "Emotion Label Present in Sentence")
ANNOTATION_FILES = ("sentence_eval_annotator1.csv", "sentence_eval_annotator2.csv")
#: IDEM paper, section 3.3
PAPER_KAPPA_IDEAL = 0.62


def cohen_kappa(first: Sequence[Hashable], second: Sequence[Hashable]) -> float:
    """Cohen's kappa between two raters' labels of the same items:
    (observed agreement - chance agreement) / (1 - chance agreement).

    Chance agreement sums, over labels, the product of the two raters' label frequencies.
    If both raters use one and the same label throughout, agreement is perfect and kappa is 1.

    >>> round(cohen_kappa([1, 1, 0, 0, 1, 0], [1, 0, 0, 0, 1, 1]), 4)
    0.3333
    >>> cohen_kappa(["a", "b"], ["a", "b"]), cohen_kappa(["a", "a"], ["a", "a"])
    (1.0, 1.0)
    """
    if len(first) != len(second):
        raise ValueError(f"cohen_kappa: the raters must label the same items. Got "
                         f"{len(first)} and {len(second)} labels.")
    if not first:
        raise ValueError("cohen_kappa: no items to compare.")
    n = len(first)
    observed = sum(a == b for a, b in zip(first, second)) / n
    count_a, count_b = Counter(first), Counter(second)
    chance = sum(count_a[label] * count_b[label] for label in count_a) / (n * n)
    if chance == 1.0:
        return 1.0
    return (observed - chance) / (1 - chance)


def read_annotation(path: str | Path) -> list[dict]:
    """One annotator's file: per sentence its ``index`` (idiom id), ``sentence``, ``emotion``
    and the four flags as booleans."""
    path = Path(path)
    with open(path, encoding="utf-8-sig", newline="") as handle:
        reader = csv.DictReader(handle)
        missing = [c for c in ("index", "Sentence", "Emotion", *FLAGS)
                   if c not in (reader.fieldnames or [])]
        if missing:
            raise DataError("E344", f"Annotation file '{path}' lacks the columns {missing}; "
                            "expected IDEM's annotation/sentence_eval_annotator*.csv.")
        rows = []
        for row in reader:
            try:
                flags = {flag: int(row[flag]) == 1 for flag in FLAGS}
            except (TypeError, ValueError):
                raise DataError("E345", f"Annotation file '{path}', line {reader.line_num}: "
                                "a flag is not 0 or 1.") from None
            rows.append({"index": row["index"].strip(), "sentence": row["Sentence"].strip(),
                         "emotion": row["Emotion"].strip(), **flags})
        return rows


def is_ideal(row: dict) -> bool:
    """Ideal (section 3.3): the annotator raised none of the four flags."""
    return not any(row[flag] for flag in FLAGS)


def annotation_agreement(data_dir: str | Path | None = None) -> dict:
    """Kappa on the "ideal" judgement and on each flag, with counts."""
    root = resolve_data_dir(data_dir)
    first, second = (read_annotation(dataset_file(root, "idem", "annotation", name))
                     for name in ANNOTATION_FILES)
    if [(r["index"], r["sentence"]) for r in first] != [(r["index"], r["sentence"])
                                                         for r in second]:
        raise DataError("E346", "The two annotation files do not list the same sentences in "
                        "the same order; restore them from the IDEM release.")
    ideal_a = [is_ideal(r) for r in first]
    ideal_b = [is_ideal(r) for r in second]
    return {
        "n": len(first),
        "kappa_ideal": cohen_kappa(ideal_a, ideal_b),
        "both_ideal": sum(a and b for a, b in zip(ideal_a, ideal_b)),
        "ideal_annotator1": sum(ideal_a),
        "ideal_annotator2": sum(ideal_b),
        "kappa_per_flag": {
            flag: cohen_kappa([r[flag] for r in first], [r[flag] for r in second])
            for flag in FLAGS
        },
        "paper_kappa_ideal": PAPER_KAPPA_IDEAL,
    }
