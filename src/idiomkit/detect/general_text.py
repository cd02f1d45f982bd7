"""How often each lexicon idiom matches in general text: the candidate scorer's commonness prior.

Many lexicon entries are everyday phrases as well as idioms ("according to", "look at",
"as well as", "make sure"). In a sentence that holds one of them and a rarer idiom, the rarer
idiom is far more often the one meant, and on its own an everyday phrase is more often plain
words. The scorer therefore reads, per entry, how many sentences of general text it matches in
(:data:`FEATURE` ``general_rate`` in :mod:`.scorer`).

The general text is the running text of the train splits the data directory holds, never IDEM
(the scorer is calibrated and tested on IDEM):

- PIE-English and EPIE Formal train sentences (British National Corpus), with the matches that
  overlap the sentence's own target idiom left out, and sentences whose target is not located
  left out entirely;
- the previous and next sentences of AStitch's English ``train_few_shot`` and SemEval-2022's
  English ``train_zero_shot`` / ``train_one_shot`` (web text), without the row's compound.

Counts are per sentence (an entry counts once per sentence) and kept by idiom text, so they
carry over to a lexicon that adds entries: an entry absent from the counts is taken as rare.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from ..datasets.base import load_dataset

#: (dataset, split) pairs whose own target idiom is located by ``meta["span"]``
TARGET_SPAN_SOURCES = (("pie-english", "train"), ("epie-formal", "train"))
#: (dataset, split) pairs whose ``previous`` / ``next`` sentences are read
CONTEXT_SOURCES = (
    ("astitch", "train_few_shot"),
    ("semeval-a", "train_zero_shot"),
    ("semeval-a", "train_one_shot"),
)
#: ``general_rate`` is log(1 + matches per this many sentences)
PER_SENTENCES = 10_000


def general_sentences(
    data_dir: str | Path | None = None,
) -> tuple[list[tuple[str, tuple[int, int] | None, str]], list[Path]]:
    """The general-text sentences, each as ``(text, target_span, target_idiom)``, and the
    files they were read from (for the checksum). ``target_span`` is the character span to
    leave out, ``target_idiom`` the lower-cased idiom whose matches are left out."""
    sentences: list[tuple[str, tuple[int, int] | None, str]] = []
    files: list[Path] = []
    for name, split in TARGET_SPAN_SOURCES:
        dataset = load_dataset(name, split, data_dir=data_dir)
        files.extend(dataset.files)
        for example in dataset:
            span = example.meta.get("span")
            if span:
                sentences.append((example.text, (int(span[0]), int(span[1])), ""))
    seen: set[str] = set()
    for name, split in CONTEXT_SOURCES:
        dataset = load_dataset(name, split, data_dir=data_dir)
        files.extend(dataset.files)
        for example in _english(dataset):
            for key in ("previous", "next"):
                text = (example.meta.get(key) or "").strip()
                if text and text not in seen:
                    seen.add(text)
                    sentences.append((text, None, (example.idiom or "").lower()))
    return sentences, files


def _english(dataset) -> Iterator:
    return (e for e in dataset if e.meta.get("language", "EN").upper() == "EN")


def count_matches(matcher, sentences) -> Counter:
    """Sentences each entry is a candidate in (by lower-cased idiom), with ``matcher`` a
    :class:`~.lexicon_matcher.LexiconMatcher` built with ``scorer=None, keep_nested=True``."""
    return collect_matches(matcher, sentences)[0]


def collect_matches(matcher, sentences, examples: int = 0) -> tuple[Counter, dict[str, list]]:
    """:func:`count_matches`, and for each entry up to ``examples`` of the sentences it
    matches in, as ``{"text", "matched"}`` (the matched words)."""
    lexicon = matcher.lexicon
    counts: Counter = Counter()
    found: dict[str, list] = {}
    for text, span, target in sentences:
        cands, tokens = matcher.candidates(text)
        matched: dict[str, str] = {}
        for cand in cands:
            if span is not None and (
                tokens[cand.lo].start < span[1] and tokens[cand.hi].end > span[0]
            ):
                continue
            idiom = lexicon[cand.pattern.entry_index].idiom.lower()
            if idiom != target and idiom not in matched:
                matched[idiom] = " ".join(tokens[p].text for p in sorted(cand.positions))
        counts.update(matched.keys())
        if examples:
            for idiom, words in matched.items():
                kept = found.setdefault(idiom, [])
                if len(kept) < examples:
                    kept.append({"text": text, "matched": words})
    return counts, found


def general_rate(count: int, n_sentences: int) -> float:
    """The feature value: log(1 + matches per :data:`PER_SENTENCES` sentences)."""
    return math.log1p(PER_SENTENCES * count / n_sentences) if n_sentences else 0.0


__all__ = ["collect_matches", "count_matches", "general_rate", "general_sentences"]
