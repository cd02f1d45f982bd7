"""Train the span tagger (``idiomkit train tagger``): a token head over frozen MiniLM states.

Training data: the idiomatic and literal sentences of Labelled EPIE (``epie-formal``) and
PIE-English, train split; tokens inside an idiomatic sentence's annotated span are 1, every
other token (all of a literal sentence) 0. Every one of those sentences holds an idiom's
words, so running text is added too, all 0: the sentences before and after AStitch's English
targets (its train splits; dev and test ones for the dev and test figures), where idioms are
rare. Without them the tagger tags something in one general sentence out of ten. Both corpora
are tokenised; sentences are detokenised as ``analyze`` will see running text
(:func:`~idiomkit.datasets.idiots.detokenize`).
The encoder is frozen, so its states are computed once and only the head trains (about a
minute on 2 cores); the epoch with the best dev token F1 is kept. The card reports token
precision/recall/F1 and sentence-level recall and specificity on dev and test, and recall on
test idioms whose type never occurs in training.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..datasets.idiots import expression_key
from ..evaluate.metrics import precision_recall_f1
from .tagger import HEAD_KEYS, SpanTagger, TaggerConfig, apply_token_head, decode_spans

NAME = "default"
SOURCES = ("epie-formal", "pie-english")
_TERMS = {"epie-formal": "none stated (EPIE)", "pie-english": "none stated (PIE-English)",
          "astitch": "GPL-3.0 (AStitchInLanguageModels repository; context sentences)"}


@dataclass(frozen=True)
class TaggedSentence:
    """A training sentence: running text, the idiom's span (idiomatic only), label, idiom;
    ``plain``: running text with no idiom's words marked (a context sentence)."""

    text: str
    span: tuple[int, int] | None
    idiomatic: bool
    idiom: str
    plain: bool = False


def tagger_sentences(split: str, data_dir: str | Path | None = None,
                     sources: Sequence[str] = SOURCES) -> list[TaggedSentence]:
    """Idiomatic sentences with a span and literal sentences of ``split``, detokenised."""
    from ..datasets.base import load_dataset
    from ..datasets.idiots import IDIOMATIC, LITERAL, detokenize

    out = []
    for name in sources:
        for example in load_dataset(name, split, data_dir):
            if example.label not in (IDIOMATIC, LITERAL):
                continue
            text, span = detokenize(example.text, example.meta.get("span"))
            if example.label == IDIOMATIC and span is None:
                continue
            out.append(TaggedSentence(text, span if example.label == IDIOMATIC else None,
                                      example.label == IDIOMATIC, example.idiom or ""))
    return out + plain_sentences(split, data_dir)


#: AStitch splits whose context sentences serve as running text for each split
PLAIN_SPLITS = {"train": ("train_zero_shot", "train_one_shot", "train_few_shot"),
                "dev": ("dev",), "test": ("test",)}


def plain_sentences(split: str, data_dir: str | Path | None = None) -> list[TaggedSentence]:
    """The distinct English context sentences (6 to 50 words) of AStitch's ``split``."""
    from ..datasets.base import load_dataset

    seen: dict[str, None] = {}
    for part in PLAIN_SPLITS.get(split, ()):
        for example in load_dataset("astitch", part, data_dir):
            for key in ("previous", "next"):
                text = (example.meta.get(key) or "").strip()
                if 6 <= len(text.split()) <= 50:
                    seen.setdefault(text)
    return [TaggedSentence(text, None, False, "", plain=True) for text in seen]


def token_labels(offsets: Sequence[tuple[int, int]], span: tuple[int, int] | None) -> np.ndarray:
    """1 for the (non-special) tokens overlapping ``span``, else 0.

    >>> token_labels([(0, 0), (0, 2), (3, 7), (8, 11), (0, 0)], (3, 11)).tolist()
    [0.0, 0.0, 1.0, 1.0, 0.0]
    """
    labels = np.zeros(len(offsets), dtype=np.float32)
    if span is not None:
        for i, (a, b) in enumerate(offsets):
            if b > a and a < span[1] and b > span[0]:
                labels[i] = 1.0
    return labels


def _sentence_scores(tagger: SpanTagger, sentences: Sequence[TaggedSentence],
                     probs: Sequence[np.ndarray], offsets: Sequence[Sequence[tuple[int, int]]],
                     seen: set[str] | None = None) -> dict[str, Any]:
    """Token P/R/F1 at ``token_threshold``; sentence recall (a kept span overlaps the gold one)
    and specificity (no span kept in a literal sentence); the share of running-text sentences
    with a span kept; recall on unseen types."""
    config = tagger.config
    tp = fp = fn = 0
    found = {True: [0, 0], False: [0, 0]}  # idiomatic: [hits, n]; literal: [tagged, n]
    plain = [0, 0]  # running text: [tagged, n]
    unseen = [0, 0]
    for sentence, p, offs in zip(sentences, probs, offsets):
        gold = token_labels(offs, sentence.span) > 0
        predicted = (p >= config.token_threshold) & np.array([b > a for a, b in offs])
        tp += int((predicted & gold).sum())
        fp += int((predicted & ~gold).sum())
        fn += int((~predicted & gold).sum())
        spans = decode_spans(sentence.text, offs, p, token_threshold=config.token_threshold,
                             threshold=config.threshold, min_words=config.min_words)
        if sentence.plain:
            plain[0] += bool(spans)
            plain[1] += 1
            continue
        if sentence.idiomatic:
            hit = any(s.start < sentence.span[1] and s.end > sentence.span[0] for s in spans)
            found[True][0] += hit
            if seen is not None and expression_key(sentence.idiom) not in seen:
                unseen[0] += hit
                unseen[1] += 1
        else:
            found[False][0] += bool(spans)
        found[sentence.idiomatic][1] += 1
    scores: dict[str, Any] = {
        "token": precision_recall_f1(tp, fp, fn),
        "sentence_recall": round(found[True][0] / max(found[True][1], 1), 4),
        "sentence_specificity": round(1 - found[False][0] / max(found[False][1], 1), 4),
        "plain_tagged_rate": round(plain[0] / max(plain[1], 1), 4),
        "n": {"idiomatic": found[True][1], "literal": found[False][1], "plain": plain[1]},
    }
    if seen is not None:
        scores["recall_unseen_types"] = round(unseen[0] / max(unseen[1], 1), 4)
        scores["n"]["idiomatic_unseen_types"] = unseen[1]
    return scores


def train_tagger(output: str | Path, *, data_dir: str | Path | None = None, seed: int = 0,
                 epochs: int = 8, lr: float = 1e-3, batch_size: int = 512, head_hidden: int = 256,
                 num_layers: int = 3, threshold: float = 0.95, threads: int = 2,
                 limit: int | None = None, hold_out_types: float = 0.0, progress: bool = True,
                 command: Sequence[str] | None = None) -> dict[str, Any]:
    """Train a tagger into ``output``; return its card. ``limit``: at most this many
    sentences per split, a seeded sample (for quick checks; the shipped tagger uses all).
    ``hold_out_types``: this share of the training idiom types (a seeded sample) is left out
    of training, idiomatic and literal sentences alike, so that ``recall_unseen_types`` on dev
    and test measures the tagger on idioms it never saw (the shipped tagger uses 0)."""
    from ..models.artifacts import save_artifact
    from ..models.cards import make_card
    from ..models.encoder import import_torch
    from ..models.resolve import resolve_model_path
    from ..models.runtime import NumpyRuntime

    torch, _ = import_torch()
    torch.manual_seed(seed)
    torch.set_num_threads(threads)
    start = time.perf_counter()
    config = TaggerConfig(num_layers=num_layers, head_hidden=head_hidden, threshold=threshold)
    runtime = NumpyRuntime(resolve_model_path(config.base), config.num_layers)
    blank = {"head.hidden.weight": np.zeros((head_hidden, 2 * runtime.hidden), np.float32),
             "head.hidden.bias": np.zeros(head_hidden, np.float32),
             "head.weight": np.zeros((1, head_hidden), np.float32),
             "head.bias": np.zeros(1, np.float32)}
    tagger = SpanTagger(config, runtime, blank)
    rng = np.random.default_rng(seed)
    splits = {s: _sample(tagger_sentences(s, data_dir), limit, rng)
              for s in ("train", "dev", "test")}
    held = _held_out_types(splits["train"], hold_out_types, seed)
    splits["train"] = [s for s in splits["train"] if expression_key(s.idiom) not in held]
    _log(progress, "encoding " + ", ".join(f"{len(v)} {k}" for k, v in splits.items()))
    encoded = {s: tagger.features([x.text for x in v], batch_size=64, dtype=np.float16)
               for s, v in splits.items()}
    words = [np.array([b > a for a, b in offs]) for offs in encoded["train"][1]]
    x = torch.from_numpy(np.concatenate([f[w] for f, w in zip(encoded["train"][0], words)]))
    y = torch.from_numpy(np.concatenate([
        token_labels(offs, s.span)[w]
        for s, offs, w in zip(splits["train"], encoded["train"][1], words)]))
    net = torch.nn.Sequential(torch.nn.Linear(x.shape[1], head_hidden), torch.nn.ReLU(),
                              torch.nn.Dropout(0.1), torch.nn.Linear(head_hidden, 1))
    optimizer = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=0.01)
    generator = torch.Generator().manual_seed(seed)
    history, best = [], (-1.0, 0, None)
    for epoch in range(1, epochs + 1):
        net.train()
        order = torch.randperm(len(x), generator=generator)
        total = 0.0
        for i in range(0, len(order), batch_size):
            rows = order[i:i + batch_size]
            logits = net(x[rows].float())[:, 0]
            loss = torch.nn.functional.binary_cross_entropy_with_logits(logits, y[rows])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item() * len(rows)
        tagger.head = _head(net)
        dev = _sentence_scores(tagger, splits["dev"], _probs(tagger, encoded["dev"][0]),
                               encoded["dev"][1])
        history.append({"epoch": epoch, "loss": round(total / len(order), 5),
                        "dev_token_f1": dev["token"]["f1"]})
        _log(progress, f"epoch {epoch}: loss {history[-1]['loss']}, dev token F1 "
                       f"{dev['token']['f1']:.4f}")
        if dev["token"]["f1"] > best[0]:
            best = (dev["token"]["f1"], epoch, dict(tagger.head))
    tagger.head = best[2]
    train_types = {expression_key(s.idiom) for s in splits["train"] if s.idiomatic}
    metrics = {
        "dev": _sentence_scores(tagger, splits["dev"], _probs(tagger, encoded["dev"][0]),
                                encoded["dev"][1], seen=train_types),
        "test": _sentence_scores(tagger, splits["test"], _probs(tagger, encoded["test"][0]),
                                 encoded["test"][1], seen=train_types),
    }
    data = {"sources": dict(_TERMS),
            "sentences": {s: len(v) for s, v in splits.items()}}
    card = make_card(
        NAME, "idiom-span-tagging", config.to_dict(), data, metrics, seed,
        command=list(command or sys.argv),
        notes="Tokens of idioms used figuratively, for idioms the bundled lexicon lacks. "
        "Trained on Labelled EPIE and PIE-English (train splits, idiomatic and literal "
        "sentences) and AStitch's English context sentences (running text, no idiom marked); "
        "evaluation and research use (the corpora's terms are named under Data). "
        "It finds the idioms of its training sentences best; `idiomkit train tagger "
        "--hold-out-types 0.2` measures it on idiom types it never saw (recall_unseen_types).",
        training={"epochs": epochs, "lr": lr, "batch_size": batch_size, "threads": threads,
                  "limit": limit, "hold_out_types": hold_out_types,
                  "held_out_types": len(held),
                  "best_epoch": best[1], "history": history,
                  "threshold_rule": "span threshold chosen on the IdioTS-style dev samples "
                  "(`idiomkit eval detection --split dev`)",
                  "train_seconds": round(time.perf_counter() - start, 1)})
    path = save_artifact(output, tagger.head, card)
    return {**card, "path": str(path)}


def _held_out_types(sentences: Sequence[TaggedSentence], share: float, seed: int) -> set[str]:
    """A seeded ``share`` of the idiom types of ``sentences`` (none for 0)."""
    import random

    types = sorted({expression_key(s.idiom) for s in sentences if s.idiom})
    return set(random.Random(seed).sample(types, round(len(types) * share)))


def _sample(sentences: list[TaggedSentence], limit: int | None, rng: np.random.Generator
            ) -> list[TaggedSentence]:
    if limit is None or len(sentences) <= limit:
        return sentences
    return [sentences[i] for i in sorted(rng.choice(len(sentences), limit, replace=False))]


def _probs(tagger: SpanTagger, feats: Sequence[np.ndarray]) -> list[np.ndarray]:
    return [apply_token_head(tagger.head, f.astype(np.float32)) for f in feats]


def _head(net) -> dict[str, np.ndarray]:
    weights = [p.detach().numpy().copy() for p in net.parameters()]
    return dict(zip(HEAD_KEYS, weights))


def _log(progress: bool, message: str) -> None:
    if progress:
        print(f"idiomkit: {message}", file=sys.stderr)
