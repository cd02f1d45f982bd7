"""IDEM Table 3 as runnable experiments on a CPU.

Every run trains on IDEM train, selects what it selects on a validation split carved from train
(:func:`~idiomkit.emotion.data.carve_validation`, seeded) and reports on the requested split.

- ``seq-*``, ``pair-*``: the packaged encoder, **frozen**, reads the Table 2 input; a logistic
  head is trained on its mean-pooled embedding (the paper fine-tunes BERT/RoBERTa end to end;
  that costs hours per row on a CPU, so these rows are "<encoder> frozen + logistic head").
- ``prompt-*``: label-description scoring (the encoders have no masked-LM head): the cosine
  between the prompt's embedding and each label's verbalization (:func:`.inputs.verbalize`) is
  the label's score; ``zero_shot`` takes the best score, the reported run trains a logistic
  head on the 36 scores (a calibrated verbalizer, the closest equivalent of fine-tuning the
  prompt model).
- ``llm-*``: the paper's zero-shot prompts through an LLM backend (``idiomkit.llm``).
- ``model``: a trained :class:`~.model.EmotionModel` (default: the shipped one), alone and with
  the IDEM sibling prior (:mod:`.prior`); ``pipeline``: the same with the idioms the finder
  returns instead of the gold ones (section 6.2).
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..datasets.base import Example
from ..errors import ConfigError
from ..models.resolve import cache_dir
from .data import EmotionData, carve_validation
from .head import LinearHead, fit_linear_head
from .inputs import TEMPLATE_VERSION, build_input, get_config, verbalize
from .labels import EMOTIONS

FROZEN_CONFIGS = ("seq-ignorant", "seq-aware", "pair-ignorant", "pair-aware",
                  "prompt-ignorant", "prompt-aware")
LLM_CONFIGS = ("llm-ignorant", "llm-aware")
MODEL_CONFIGS = ("model", "pipeline")
ALL_CONFIGS = FROZEN_CONFIGS + LLM_CONFIGS + MODEL_CONFIGS
#: l2 strengths tried on validation for frozen heads (on standardised features)
L2_GRID = (0.01, 0.03)
_INDEX = {label: i for i, label in enumerate(EMOTIONS)}


def gold_ids(examples: Sequence[Example]) -> np.ndarray:
    return np.asarray([_INDEX[e.label] for e in examples], dtype=np.int64)


def _log(progress: bool, message: str) -> None:
    if progress:
        print(message, file=sys.stderr, flush=True)


# --- frozen encoders ---------------------------------------------------------------------------
def frozen_features(cache, config: str, examples: Sequence[Example],
                    definitions: dict[str, str], *, progress: bool = False) -> np.ndarray:
    """The frozen encoder's view of ``examples`` under a Table 2 configuration: the input's
    embedding (seq, pair) or its 36 cosine scores against the label verbalizations (prompt)."""
    built = [build_input(config, e.text, e.idiom, definitions.get(e.idiom_id or ""))
             for e in examples]
    if isinstance(built[0], tuple):
        vectors = cache.encode([b[0] for b in built], [b[1] for b in built], progress=progress)
    else:
        vectors = cache.encode(built, progress=progress)
    if get_config(config).approach != "prompt":
        return vectors
    labels = cache.encode([verbalize(label) for label in EMOTIONS])
    return vectors @ labels.T


def _head_cache_path(key: dict[str, Any]) -> Path:
    digest = hashlib.sha256(repr(sorted(key.items())).encode()).hexdigest()[:20]
    return cache_dir() / "emotion-heads" / f"{digest}.npz"


def cached_head(features: np.ndarray, labels: np.ndarray, l2: float, key: dict[str, Any]
                ) -> LinearHead:
    """:func:`fit_linear_head`, remembered on disk under ``key`` plus the data's own hash
    (the fit is deterministic, so a cached head is the head a new fit would give)."""
    data_hash = hashlib.sha256(features.tobytes() + labels.tobytes()).hexdigest()[:16]
    path = _head_cache_path({**key, "l2": l2, "data": data_hash})
    if path.exists():
        with np.load(path) as saved:
            return LinearHead(saved["weight"], saved["bias"])
    head = fit_linear_head(features, labels, len(EMOTIONS), l2=l2, threads=1)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".partial")
    with open(partial, "wb") as handle:
        np.savez(handle, weight=head.weight, bias=head.bias)
    partial.replace(path)
    return head


def run_frozen(config: str, encoder: str, train: EmotionData, test: EmotionData, *,
               seed: int = 0, progress: bool = True) -> dict[str, Any]:
    """One frozen-encoder row of Table 3: choose l2 on validation, refit on all of train,
    predict ``test``. Returns metrics inputs: ``predicted``, ``validation``, ``configuration``."""
    from ..evaluate.emotion import emotion_scores
    from .embeddings import EmbeddingCache

    cache = EmbeddingCache(encoder)
    fit, val = carve_validation(train.examples, seed=seed)
    _log(progress, f"[{config} / {encoder}] embedding {len(train) + len(test)} inputs "
         "(cached after the first run)")
    x_train = frozen_features(cache, config, train.examples, train.definitions,
                              progress=progress)
    x_test = frozen_features(cache, config, test.examples, train.definitions)
    y_train = gold_ids(train.examples)
    position = {id(e): i for i, e in enumerate(train.examples)}
    fit_rows = np.asarray([position[id(e)] for e in fit])
    val_rows = np.asarray([position[id(e)] for e in val])
    key = {"encoder": encoder, "config": config, "template": TEMPLATE_VERSION}
    validation = {}
    for l2 in L2_GRID:
        head = cached_head(x_train[fit_rows], y_train[fit_rows], l2, {**key, "part": "fit"})
        predicted = head.logits(x_train[val_rows]).argmax(1)
        validation[l2] = emotion_scores(y_train[val_rows], predicted)
    best = max(L2_GRID, key=lambda l2: (validation[l2]["weighted_f1"], -l2))
    head = cached_head(x_train, y_train, best, {**key, "part": "train"})
    out: dict[str, Any] = {
        "predicted": head.logits(x_test).argmax(1),
        "configuration": {"config": config, "encoder": encoder,
                          "method": f"{encoder} frozen + logistic head",
                          "l2": best, "template": TEMPLATE_VERSION},
        "validation": {"n": len(val), "selected_l2": best,
                       "weighted_f1_by_l2": {str(k): v["weighted_f1"]
                                             for k, v in validation.items()}},
    }
    if get_config(config).approach == "prompt":
        out["configuration"]["method"] = (f"{encoder} frozen, label-description scoring + "
                                          "trained verbalizer calibration")
        out["zero_shot"] = emotion_scores(gold_ids(test.examples), x_test.argmax(1))
    return out


# --- trained models and the automated pipeline -------------------------------------------------
def finder_idioms(texts: Sequence[str], *, progress: bool = True
                  ) -> tuple[list[str | None], list[str | None]]:
    """The top idiom the default finder returns for each text, and its definition."""
    from ..finder import Finder

    finder = Finder()
    idioms: list[str | None] = []
    definitions: list[str | None] = []
    _log(progress, f"finding idioms in {len(texts)} sentences")
    for text in texts:
        spans = finder.find(text).idioms
        idioms.append(spans[0].idiom if spans else None)
        definitions.append(spans[0].definition if spans else None)
    return idioms, definitions


#: weights tried for the second and later members of an ensemble (the first has weight 1)
ENSEMBLE_GRID = (0.0, 0.25, 0.5, 0.75, 1.0)


class ProbabilityMemo:
    """Emotion models loaded once and their probabilities remembered by the inputs they read.

    The ``model`` and ``pipeline`` rows differ only in the idioms given; an idiom-ignorant model
    renders the same inputs for both, so its probabilities are computed once per run.
    """

    def __init__(self) -> None:
        self._models: dict[str, Any] = {}
        self._probs: dict[tuple, np.ndarray] = {}

    def load(self, name: str):
        from .model import EmotionModel

        if name not in self._models:
            self._models[name] = EmotionModel.load(name)
        return self._models[name]

    def predict_proba(self, model, texts: Sequence[str], idioms: Sequence[str | None],
                      definitions: Sequence[str | None]) -> np.ndarray:
        from .model import render_inputs

        firsts, seconds = render_inputs(model.config, texts, idioms, definitions)
        key = (id(model), tuple(firsts), tuple(seconds))
        if key not in self._probs:
            self._probs[key] = model.predict_proba(texts, idioms, definitions)
        return self._probs[key]


def run_model(train: EmotionData, test: EmotionData, *, model: str = "default",
              idioms_from: str = "gold", seed: int = 0, progress: bool = True,
              memo: ProbabilityMemo | None = None) -> dict[str, Any]:
    """Trained emotion model(s) on ``test``: see :func:`score_model`. ``model`` is a name or
    folder, or several comma-separated (an ensemble). ``idioms_from``: ``gold`` (the dataset's
    idioms) or ``finder`` (section 6.2's automated pipeline: the finder's idioms for the
    validation sentences too, so the weights are chosen for what the pipeline will see).
    Runs sharing a ``memo`` load each model once and reuse its probabilities."""
    memo = memo or ProbabilityMemo()
    names = [m.strip() for m in str(model).split(",") if m.strip()]
    models = [memo.load(name) for name in names]
    texts = [e.text for e in test.examples]
    found = None
    if idioms_from == "finder":
        _, val = carve_validation(train.examples, seed=seed)
        idioms, definitions = finder_idioms(texts + [e.text for e in val], progress=progress)
        found = (idioms[len(texts):], definitions[len(texts):])
        idioms, definitions = idioms[:len(texts)], definitions[:len(texts)]
    else:
        idioms = [e.idiom for e in test.examples]
        definitions = [train.definitions.get(e.idiom_id or "") for e in test.examples]
    _log(progress, f"emotion model(s) {', '.join(names)}: validation and test predictions")
    out = score_model(models, train, test, idioms, definitions, seed=seed, val_idioms=found,
                      predict_proba=memo.predict_proba)
    out["configuration"].update({"config": "pipeline" if idioms_from == "finder" else "model",
                                 "model": names, "idioms": idioms_from})
    return out


def _method(config) -> str:
    return (f"{config.base} ({config.num_layers or 'all'} layers) LoRA r{config.lora_rank} "
            f"in the top {config.train_layers or 'all'}")


def score_model(models: Any, train: EmotionData, test: EmotionData,
                idioms: Sequence[str | None], definitions: Sequence[str | None], *,
                seed: int = 0, fraction: float = 0.1,
                val_idioms: tuple[Sequence[str | None], Sequence[str | None]] | None = None,
                predict_proba: Any = None) -> dict[str, Any]:
    """Emotion model(s) on ``test`` (told ``idioms``), without and with the sibling prior.

    ``models`` is one model or a list; several are combined by a weighted sum of
    log-probabilities. Ensemble weights and the prior's weight are chosen on the validation
    split carved with ``seed``, which must be the split the models were selected on (their
    cards record the seed), so no model trained on it.
    Validation sentences get the prior of the rest of train, test sentences that of all of train.
    ``val_idioms`` (idioms, definitions) replace the validation sentences' gold idioms.
    ``predict_proba(model, texts, idioms, definitions)`` computes a model's probabilities
    (default: the model's own method; :meth:`ProbabilityMemo.predict_proba` reuses them).
    """
    import itertools

    from ..evaluate.emotion import emotion_scores
    from .prior import SiblingPrior, apply_prior, choose_weight

    if not isinstance(models, (list, tuple)):  # one model
        models = [models]
    for m in models:
        carved = m.card.get("data", {}).get("train", {})
        if (carved.get("validation_seed", seed), carved.get("validation_fraction", fraction)) \
                != (seed, fraction):
            raise ConfigError(
                "E466", f"The emotion model {m.card.get('name')!r} was selected on the "
                f"validation split of seed {carved.get('validation_seed')} (fraction "
                f"{carved.get('validation_fraction')}), not seed {seed} (fraction {fraction}): "
                "it may have trained on these validation sentences. Pass --seed "
                f"{carved.get('validation_seed')} or retrain it with --seed {seed}.")
    fit, val = carve_validation(train.examples, fraction, seed)
    defs = train.definitions
    if val_idioms is None:
        val_idioms = ([e.idiom for e in val], [defs.get(e.idiom_id or "") for e in val])
    val_args = ([e.text for e in val], *val_idioms)
    test_args = ([e.text for e in test.examples], idioms, definitions)
    if predict_proba is None:
        def predict_proba(model, *args):
            return model.predict_proba(*args)
    val_logp = [np.log(predict_proba(m, *val_args) + 1e-12) for m in models]
    test_logp = [np.log(predict_proba(m, *test_args) + 1e-12) for m in models]
    gold_val, gold = gold_ids(val), gold_ids(test.examples)
    val_adjust = SiblingPrior.fit((e.idiom, e.label) for e in fit).adjustment(val_idioms[0])
    test_adjust = SiblingPrior.fit((e.idiom, e.label) for e in train.examples).adjustment(
        idioms)
    best, best_plain = None, None
    for rest in itertools.product(ENSEMBLE_GRID, repeat=len(models) - 1):
        weights = (1.0, *rest)
        combined = sum(w * lp for w, lp in zip(weights, val_logp))
        prior_weight, by_weight = choose_weight(combined, val_adjust, gold_val)
        if best is None or by_weight[prior_weight] > best[0]:
            best = (by_weight[prior_weight], weights, prior_weight, by_weight)
        if best_plain is None or by_weight[0.0] > best_plain[0]:
            best_plain = (by_weight[0.0], weights)
    _, weights, prior_weight, by_weight = best
    test_combined = sum(w * lp for w, lp in zip(weights, test_logp))
    plain = sum(w * lp for w, lp in zip(best_plain[1], test_logp))
    def ensemble(weights) -> str:
        if len(models) == 1:
            return _method(models[0].config)
        return " + ".join(f"{w:g} x {_method(m.config)}" for w, m in zip(weights, models) if w)

    method = ensemble(weights) + " + IDEM sibling prior"
    return {
        "predicted": apply_prior(test_combined, test_adjust, prior_weight).argmax(1),
        "without_prior": emotion_scores(gold, plain.argmax(1)),
        "configuration": {
            "base": [m.config.base for m in models], "input": [m.config.input for m in models],
            "method": method, "method_without_prior": ensemble(best_plain[1]),
            "ensemble_weights": list(weights), "prior_weight": prior_weight,
        },
        "validation": {"n": len(val),
                       "weighted_f1": by_weight[prior_weight],
                       "weighted_f1_without_prior": best_plain[0],
                       "ensemble_weights_without_prior": list(best_plain[1]),
                       "weighted_f1_by_prior_weight": {str(k): v for k, v in by_weight.items()},
                       "model_seeds": [m.card.get("seed") for m in models]},
        "idioms_given": sum(i is not None for i in idioms),
        "idioms_gold": sum(
            bool(i) and e.idiom is not None and i.casefold() == e.idiom.casefold()
            for i, e in zip(idioms, test.examples)),
    }


# --- zero-shot LLM -----------------------------------------------------------------------------
def run_llm(config: str, test: EmotionData, definitions: dict[str, str], llm: str, *,
            base_url: str | None = None, limit: int | None = None,
            progress: bool = True) -> dict[str, Any]:
    """The paper's zero-shot prompt through an LLM backend: ``llm`` is ``BACKEND:MODEL``
    (e.g. ``llamacpp:smollm2-135m``, ``openai:gpt-4o`` with ``base_url``)."""
    from ..llm.base import create_backend
    from ..llm.cache import AnswerCache
    from ..llm.idem import prompt_completer
    from .llm_task import EmotionLLMTask

    backend_name, _, model_name = llm.partition(":")
    if not backend_name or not model_name:
        raise ConfigError("E456", f"--llm must be BACKEND:MODEL (e.g. llamacpp:smollm2-135m). "
                          f"Got {llm!r}.")
    options = {"base_url": base_url} if base_url else {}
    backend = create_backend(backend_name, model_name, **options)
    task = EmotionLLMTask(idiom_aware=get_config(config).idiom_aware)
    complete = prompt_completer(backend, cache=AnswerCache(),
                                name=f"idiomkit-emotion-{task.name}-{task.template_hash}")
    examples = test.examples[:limit] if limit else test.examples
    _log(progress, f"[{config}] asking {llm} about {len(examples)} sentences")
    labels = task.run(complete, [e.text for e in examples], [e.idiom for e in examples],
                      [definitions.get(e.idiom_id or "") for e in examples])
    unparsed = sum(label is None for label in labels)
    # an answer naming none of the 36 emotions is wrong: predict an impossible class index
    predicted = np.asarray([_INDEX[label] if label else len(EMOTIONS) for label in labels])
    return {"predicted": predicted, "n_examples": len(examples), "unparseable": unparsed,
            "configuration": {"config": config, "llm": llm, "method": "zero-shot prompt",
                              "template_hash": task.template_hash}}
