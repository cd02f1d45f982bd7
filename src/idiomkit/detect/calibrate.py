"""Calibrate the candidate scorer on IDEM train (``idiomkit lexicon calibrate``).

First counts how often each lexicon entry matches in general text (:mod:`.general_text`,
train splits of PIE-English, EPIE, AStitch and SemEval; never IDEM), the scorer's
``general_rate`` feature, which the JSON keeps. Then trains a logistic regression over
:data:`~idiomkit.detect.scorer.FEATURES` of every candidate the lexicon matcher proposes on
IDEM train (label: the candidate is the sentence's gold idiom), and picks ``min_confidence`` by
the all-candidates F1 of the whole finder on 5-fold cross-validated probabilities, so the
threshold is not fitted to the same predictions it filters: the lowest threshold within
:data:`F1_TOLERANCE` of the best F1. Last it picks ``floor``, the
confidence below which even a sentence's best candidate is left out: the highest that costs at
most :data:`FLOOR_RECALL_COST` of that recall, and of the figurative uses the finder finds in
PIE-English and EPIE Formal train (running text, where real idioms score lower than in IDEM's
short sentences: "rang a little bell" 0.05). Every sentence of these holds an idiom, so they
cannot say what a floor gains; plain running text can: in the English context sentences of
AStitch and SemEval, a floor of 0.02 clears 120 of the 2,660 sentences that had a candidate,
mostly plain words ("It has been a long day" is no "has-been"). Needs scikit-learn
(``pip install 'idiomkit[train]'``). Deterministic: same data, same weights.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..datasets.paths import checksum, dataset_file, resolve_data_dir
from ..errors import MissingDependencyError
from ..lexicon import load_lexicon
from .general_text import TARGET_SPAN_SOURCES, count_matches, general_rate, general_sentences
from .lexicon_matcher import (
    LexiconMatcher,
    _drop_contained,
    _drop_light_overlaps,
    _drop_overlaps,
    select_candidates,
)
from .scorer import FEATURES, candidate_features

SEED = 0
#: IDEM gives each sentence one gold idiom, so a real second idiom counts as a false positive
#: and its F1 favours a high ``min_confidence``; running text holds second idioms. The
#: threshold is therefore the lowest whose cross-validated F1 is within this of the best (the
#: curve is flat above about 0.6, and one standard error of F1 on 8,729 sentences is ~0.003)
F1_TOLERANCE = 0.001
#: share of recall the floor may cost on IDEM train (cross-validated; about 9 of 8,729
#: sentences) and on the figurative uses of PIE-English and EPIE Formal train
FLOOR_RECALL_COST = 0.001


def calibrate(output: str | Path, data_dir: str | Path | None = None, *, progress=True) -> dict:
    """Fit the scorer on IDEM train and write its JSON to ``output``; returns the JSON."""
    try:
        import numpy as np
        from sklearn.linear_model import LogisticRegression
        from sklearn.model_selection import GroupKFold, KFold
    except ImportError:  # pragma: no cover - depends on the environment
        raise MissingDependencyError(
            "E503", "Calibrating needs scikit-learn: pip install 'idiomkit[train]'."
        ) from None
    import csv

    from tqdm import tqdm

    root = resolve_data_dir(data_dir)
    train_path = dataset_file(root, "idem", "idem_train.csv")
    with open(train_path, encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    lexicon = load_lexicon()
    matcher = LexiconMatcher(lexicon, scorer=None, keep_nested=True)
    matcher._compile()
    general, general_files = general_sentences(root)
    counts = count_matches(
        matcher, tqdm(general, desc="general text", disable=not progress)
    )
    matcher._lexicon_stats.general = [
        general_rate(counts.get(e.idiom.lower(), 0), len(general)) for e in lexicon
    ]
    sentences = []  # (candidates, features, labels)
    for row in tqdm(rows, desc="candidates", disable=not progress):
        text = row["sentence"]
        cands, tokens = matcher.candidates(text)
        # as LexiconMatcher.match does before scoring
        cands = _drop_light_overlaps(_drop_contained(cands))
        gold = row["idiom"].strip().lower()
        labels = [lexicon[c.pattern.entry_index].idiom.lower() == gold for c in cands]
        norms = [t.norm for t in tokens]
        feats = (
            candidate_features(cands, matcher._lexicon_stats, norms, tokens, text) if cands else []
        )
        sentences.append((cands, feats, labels, gold))
    X = np.array([f for _, feats, _, _ in sentences for f in feats], dtype=float)
    y = np.array([lab for _, _, labels, _ in sentences for lab in labels], dtype=int)
    mean, scale = X.mean(axis=0), X.std(axis=0)
    scale[scale == 0] = 1.0
    Z = (X - mean) / scale

    offsets = np.cumsum([0] + [len(s[0]) for s in sentences])

    def cross_validated(folds) -> np.ndarray:
        probs = np.zeros(len(y))
        for train_idx, test_idx in folds:
            tr = np.concatenate([np.arange(offsets[i], offsets[i + 1]) for i in train_idx])
            te = np.concatenate([np.arange(offsets[i], offsets[i + 1]) for i in test_idx])
            model = LogisticRegression(C=1.0, max_iter=2000).fit(Z[tr], y[tr])
            probs[te] = model.predict_proba(Z[te])[:, 1]
        return probs

    # Folds by sentence choose the thresholds. Folds by gold idiom say how the finder ranks
    # idioms it was not fitted on (IDEM test shares every idiom with train; other text will not).
    probs = cross_validated(KFold(5, shuffle=True, random_state=SEED).split(sentences))
    unseen_probs = cross_validated(
        GroupKFold(5).split(sentences, groups=[gold for *_, gold in sentences])
    )
    scores = [(tau, _finder_metrics(sentences, probs, offsets, tau, lexicon))
              for tau in [round(0.02 * k, 2) for k in range(1, 50)]]
    best_f1 = max(metrics["f1"] for _, metrics in scores)
    tau, cv_metrics = next((tau, metrics) for tau, metrics in scores
                           if metrics["f1"] >= best_f1 - F1_TOLERANCE)
    model = LogisticRegression(C=1.0, max_iter=2000).fit(Z, y)
    params = {
        "features": list(FEATURES),
        "mean": mean.tolist(),
        "scale": scale.tolist(),
        "coef": model.coef_[0].tolist(),
        "intercept": float(model.intercept_[0]),
        "min_confidence": tau,
        "floor": 0.0,
        "general_text": {
            "sentences": len(general),
            "dataset_checksum": checksum(general_files),
            "counts": dict(sorted(counts.items())),
        },
        "card": {
            "model": "logistic regression (scikit-learn, C=1.0, lbfgs) over standardised features",
            "trained_on": "IDEM train (8,729 sentences); labels: candidate == gold idiom",
            "dataset_checksum": checksum([train_path]),
            "lexicon": f"{lexicon.name} ({len(lexicon)} entries)",
            "seed": SEED,
            "cv_metrics_on_train": cv_metrics,
            "n_candidates": int(len(y)),
            "command": "idiomkit lexicon calibrate",
        },
    }
    _write(params, output)
    card = params["card"]
    params["floor"], card["cv_metrics_on_train"], card["floor_check"] = _choose_floor(
        LexiconMatcher(lexicon, scorer=output), root,
        lambda floor: _finder_metrics(sentences, probs, offsets, tau, lexicon, floor=floor),
    )
    card["cv_metrics_unseen_idioms"] = _finder_metrics(
        sentences, unseen_probs, offsets, tau, lexicon, floor=params["floor"]
    )
    _write(params, output)
    return params


def _write(params: dict, output: str | Path) -> None:
    output = Path(output)
    output.parent.mkdir(parents=True, exist_ok=True)
    with open(output, "w", encoding="utf-8") as handle:
        json.dump(params, handle, indent=1)
        handle.write("\n")


def _choose_floor(matcher: LexiconMatcher, root: Path, idem_metrics) -> tuple[float, dict, dict]:
    """The highest floor (0.01 steps) that costs at most :data:`FLOOR_RECALL_COST` of recall
    on IDEM train (``idem_metrics(floor)``, cross-validated) and of the figurative uses found
    in PIE-English and EPIE Formal train (``matcher``, the scorer as fitted); returns it, the
    IDEM metrics at it and the figurative hit counts."""
    from ..classify.data import items_from_dataset
    from ..datasets.base import load_dataset
    from ..evaluate.metrics import span_hit_rate

    figurative = [
        item
        for name, split in TARGET_SPAN_SOURCES
        for item in items_from_dataset(load_dataset(name, split, data_dir=root))
        if item.label == 1 and item.span
    ]
    matcher._compile()

    def hits(floor: float) -> int:
        matcher._scorer.floor = floor
        found = [[(s.start, s.end) for s in matcher.match(item.text)] for item in figurative]
        return span_hit_rate(found, [item.span for item in figurative])["hits"]

    idem_base, fig_base = idem_metrics(0.0), hits(0.0)
    floor, chosen, fig_hits = 0.0, idem_base, fig_base
    for value in [round(0.01 * k, 2) for k in range(1, 31)]:
        metrics, found = idem_metrics(value), hits(value)
        if (metrics["recall"] < idem_base["recall"] - FLOOR_RECALL_COST
                or found < fig_base * (1 - FLOOR_RECALL_COST)):
            break
        floor, chosen, fig_hits = value, metrics, found
    check = {"figurative_uses": len(figurative), "found_without_floor": fig_base,
             "found_with_floor": fig_hits, "sources": [list(s) for s in TARGET_SPAN_SOURCES]}
    return floor, chosen, check


def _finder_metrics(sentences, probs, offsets, tau, lexicon, *, floor=0.0) -> dict:
    """All-candidates P/R/F1 and selection accuracy of the finder at ``min_confidence=tau``
    and ``floor``."""
    n_pred = correct = hit = top = 0
    for i, (cands, _, _, gold) in enumerate(sentences):
        for cand, prob in zip(cands, probs[offsets[i]:offsets[i + 1]]):
            cand.rank = float(prob)
        kept = select_candidates(cands, tau, floor=floor)
        preds = [lexicon[c.pattern.entry_index].idiom.lower() for c in _drop_overlaps(kept)]
        n_pred += len(preds)
        correct += sum(p == gold for p in preds)
        hit += gold in preds
        top += bool(preds) and preds[0] == gold
    n = len(sentences)
    precision = correct / n_pred if n_pred else 0.0
    recall = hit / n
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {"precision": round(precision, 4), "recall": round(recall, 4), "f1": round(f1, 4),
            "selection_accuracy": round(top / n, 4), "min_confidence": tau, "floor": floor,
            "predictions_per_sentence": round(n_pred / n, 3)}


__all__ = ["calibrate"]
