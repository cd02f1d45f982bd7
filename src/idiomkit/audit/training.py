"""The training audit: Default vs Only-expression vs Masked-expression (Boisson et al., 2023).

One classifier, three inputs (:func:`render`):

- ``default``: the sentence as it is, the expression marked by *pooling*: the features are the
  mean of all token states beside the mean of the expression's tokens (the position a
  ``<PME>…</PME>`` pair would mark, without adding tokens MiniLM's vocabulary lacks); the quick
  backend adds the expression encoded on its own (:meth:`Auditor.features`);
- ``only_expression``: the expression's words as they occur in the sentence, nothing else;
- ``masked``: the sentence with the expression replaced by the encoder's mask token (``[MASK]``
  for MiniLM), pooled over that token.

Two backends:

- ``quick`` (the CPU preset): frozen encoder features, computed once per input setting and
  cached under :func:`~idiomkit.models.resolve.cache_dir`, and a standardised logistic-regression
  head whose ``C`` and class weighting Optuna searches (seeded TPE) on dev macro-F1;
- ``finetune``: LoRA fine-tuning of the encoder with :func:`idiomkit.classify.model.
  train_classifier` (input format ``span``: the same pooling as above), Optuna searching learning
  rate, batch size, epochs and seed as the paper's BOHB did (narrower ranges: LoRA, CPU).

Examples without a located expression (no ``meta["span"]``) cannot be masked; they are left out
of all three settings alike and counted in the results (``excluded``).
"""

from __future__ import annotations

import hashlib
import json
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..datasets import Example
from ..errors import ConfigError, DataError
from .splits import MODES, check_expression_disjoint, cv_folds

SETTINGS = ("default", "only_expression", "masked")
BACKENDS = ("quick", "finetune")
#: trials of the --quick preset (the paper: 50 trials of BOHB)
QUICK_TRIALS = 10
#: bump when the features change meaning (invalidates the cache)
FEATURE_VERSION = 1
_MASK_TOKENS = ("[MASK]", "<mask>", "[UNK]", "<unk>")


@dataclass(frozen=True)
class AuditInputs:
    """Rendered inputs of one setting: the text each example becomes and the pooled span."""

    texts: tuple[str, ...]
    spans: tuple[tuple[int, int], ...]


def render(example: Example, setting: str, mask_token: str = "[MASK]") -> tuple[str, tuple]:
    """``(text, span)`` the classifier reads for ``example`` under ``setting``.

    >>> e = Example("1", "He kicked the bucket.", idiom="kick the bucket", label="idiomatic",
    ...             meta={"span": [3, 20]})
    >>> render(e, "default")
    ('He kicked the bucket.', (3, 20))
    >>> render(e, "only_expression")
    ('kicked the bucket', (0, 17))
    >>> render(e, "masked")
    ('He [MASK].', (3, 9))
    """
    start, end = example.meta["span"]
    if setting == "default":
        return example.text, (start, end)
    if setting == "only_expression":
        words = example.text[start:end]
        return words, (0, len(words))
    if setting == "masked":
        text = example.text[:start] + mask_token + example.text[end:]
        return text, (start, start + len(mask_token))
    raise ConfigError("E477", f"Unknown input setting '{setting}'. Available: "
                      f"{', '.join(SETTINGS)}.")


def usable(examples: Sequence[Example]) -> tuple[list[Example], list[str]]:
    """The examples with a located expression and a label, and the ids of those left out."""
    kept, left = [], []
    for e in examples:
        span = e.meta.get("span")
        ok = e.label is not None and span is not None and 0 <= span[0] < span[1] <= len(e.text)
        (kept if ok else left).append(e if ok else e.id)
    return kept, left


# --------------------------------------------------------------------------- features


class FeatureExtractor:
    """Frozen encoder features: mean of all token states ‖ mean of the span's token states."""

    def __init__(self, model: str = "minilm", *, max_length: int = 128, threads: int = 2,
                 batch_size: int = 32) -> None:
        from ..models.resolve import resolve_model_path

        self.model_name = model
        self.path = resolve_model_path(model)
        self.max_length = max_length
        self.threads = threads
        self.batch_size = batch_size
        self._net = None
        self._tokenizer = None

    @property
    def tokenizer(self):
        if self._tokenizer is None:
            from ..classify.encoding import load_tokenizer

            self._tokenizer = load_tokenizer(self.path, self.max_length)
        return self._tokenizer

    @property
    def mask_token(self) -> str:
        vocab = self.tokenizer.get_vocab()
        return next(t for t in _MASK_TOKENS if t in vocab)

    def _key(self, inputs: AuditInputs) -> str:
        digest = hashlib.sha256(json.dumps(
            [FEATURE_VERSION, self.path.name, self.max_length, inputs.texts, inputs.spans]
        ).encode("utf-8"))
        return digest.hexdigest()[:32]

    def features(self, inputs: AuditInputs, *, cache: bool = True,
                 log: Callable[[str], None] | None = None) -> np.ndarray:
        """``[n, 2 * hidden]`` float32 features, from the cache when computed before."""
        from ..models.resolve import cache_dir

        path = cache_dir() / "audit-features" / f"{self._key(inputs)}.npy"
        if cache and path.exists():
            return np.load(path)
        unique = list(dict.fromkeys(zip(inputs.texts, inputs.spans)))
        started = time.perf_counter()
        table = self._compute(unique)
        if log:
            log(f"  encoded {len(unique)} distinct inputs in {time.perf_counter() - started:.0f}s")
        where = {pair: i for i, pair in enumerate(unique)}
        out = table[[where[pair] for pair in zip(inputs.texts, inputs.spans)]]
        if cache:
            path.parent.mkdir(parents=True, exist_ok=True)
            np.save(path, out)
        return out

    def _compute(self, pairs: list[tuple[str, tuple[int, int]]]) -> np.ndarray:
        from ..classify.encoding import encode, length_batches, pad, span_mask
        from ..models.encoder import import_torch
        from ..models.train import load_encoder

        torch, _ = import_torch()
        torch.set_num_threads(self.threads)
        if self._net is None:
            self._net = load_encoder(self.path).eval()
        encoded = encode(self.tokenizer, [p[0] for p in pairs], [None] * len(pairs),
                         [[p[1]] for p in pairs])
        hidden = self._net.config.hidden_size
        out = np.zeros((len(pairs), 2 * hidden), dtype=np.float32)
        with torch.inference_mode():
            for batch in length_batches([len(e) for e in encoded], self.batch_size):
                rows = [encoded[i] for i in batch]
                ids, types, mask = pad(rows)
                smask = span_mask(rows, mask, [0] * len(rows))
                states = self._net(input_ids=torch.from_numpy(ids),
                                   token_type_ids=torch.from_numpy(types),
                                   attention_mask=torch.from_numpy(mask)).last_hidden_state
                states = states.float().numpy()
                mean = (states * mask[..., None]).sum(1) / mask.sum(1, keepdims=True)
                span = (states * smask[..., None]).sum(1) / smask.sum(1, keepdims=True)
                out[batch] = np.concatenate([mean, span], axis=-1)
        return out


# --------------------------------------------------------------------------- search


def _macro_f1(gold: Sequence[Any], pred: Sequence[Any]) -> float:
    from sklearn.metrics import f1_score

    return float(f1_score(gold, pred, average="macro", zero_division=0))


def _sampler(seed: int):
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    return optuna.samplers.TPESampler(seed=seed)


def search_head(x_train: np.ndarray, y_train: np.ndarray, x_dev: np.ndarray, y_dev: np.ndarray,
                *, trials: int, seed: int) -> tuple[Any, dict[str, Any]]:
    """Optuna's search for a logistic-regression head on dev macro-F1; the best model refitted
    on train, and ``{"params", "dev_macro_f1", "trials"}``."""
    import optuna
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    def build(params: dict[str, Any]):
        # tol 1e-3 and C <= 1: on 768 standardised features, weaker regularisation only slows
        # lbfgs down (seconds per fit on a shared 2-core CPU) without helping dev macro-F1
        return make_pipeline(StandardScaler(), LogisticRegression(
            C=params["C"], class_weight=params["class_weight"], tol=1e-3, max_iter=1000))

    def objective(trial) -> float:
        params = {"C": trial.suggest_float("C", 1e-4, 1.0, log=True),
                  "class_weight": trial.suggest_categorical("class_weight", [None, "balanced"])}
        return _macro_f1(y_dev, build(params).fit(x_train, y_train).predict(x_dev))

    study = optuna.create_study(direction="maximize", sampler=_sampler(seed))
    study.optimize(objective, n_trials=trials)
    model = build(study.best_params).fit(x_train, y_train)
    return model, {"params": study.best_params, "dev_macro_f1": study.best_value,
                   "trials": len(study.trials)}


def search_finetune(train: Sequence[Any], dev: Sequence[Any], *, trials: int, seed: int,
                    model: str = "minilm", threads: int = 2, max_epochs: int = 4,
                    num_layers: int | None = None) -> tuple[Any, dict[str, Any]]:
    """Optuna's search over LoRA fine-tuning runs (:func:`~idiomkit.classify.model.
    train_classifier`, format ``span``); the best run's classifier and its search record."""
    import optuna

    from ..classify.model import ClassifierConfig, train_classifier
    from ..models.train import TrainConfig

    best: dict[str, Any] = {"score": -1.0, "classifier": None}
    seconds: list[float] = []

    def objective(trial) -> float:
        config = TrainConfig(
            lr=trial.suggest_float("lr", 1e-4, 3e-3, log=True),
            batch_size=trial.suggest_categorical("batch_size", [8, 16, 32]),
            epochs=trial.suggest_int("epochs", 1, max_epochs),
            seed=trial.suggest_categorical("seed", [1, 2, 3]),
            threads=threads,
        )
        started = time.perf_counter()
        classifier, result = train_classifier(
            train, dev, ClassifierConfig(base=model, format="span", num_layers=num_layers),
            config, progress=False)
        seconds.append(time.perf_counter() - started)
        if result.best_score > best["score"]:
            best.update(score=result.best_score, classifier=classifier)
        return result.best_score

    study = optuna.create_study(direction="maximize", sampler=_sampler(seed))
    study.optimize(objective, n_trials=trials)
    return best["classifier"], {"params": study.best_params, "dev_macro_f1": study.best_value,
                                "trials": len(study.trials),
                                "seconds_per_trial": float(np.mean(seconds))}


# --------------------------------------------------------------------------- audit


@dataclass
class Partition:
    """Which examples (indices into the audit's pool) train, select and test one comparison."""

    name: str
    train: Sequence[int]
    dev: Sequence[int]
    test: dict[str, Sequence[int]]


class Auditor:
    """Runs the three settings over partitions of one pool of examples."""

    def __init__(self, pool: Sequence[Example], *, backend: str = "quick",
                 trials: int = QUICK_TRIALS, seed: int = 0, model: str = "minilm",
                 threads: int = 2, cache: bool = True, progress: bool = True,
                 finetune_layers: int | None = None, max_epochs: int = 4,
                 inputs: Sequence[str] = SETTINGS) -> None:
        if backend not in BACKENDS:
            raise ConfigError("E478", f"Unknown audit backend '{backend}'. Available: "
                              f"{', '.join(BACKENDS)}.")
        if not isinstance(trials, int) or trials < 1:
            raise ConfigError("E479", f"The 'trials' parameter of the audit must be an integer "
                              f">= 1. Got {trials!r}.")
        self.pool = list(pool)
        self.input_settings = validate_inputs(inputs)
        self.backend = backend
        self.trials = trials
        self.seed = seed
        self.model = model
        self.threads = threads
        self.cache = cache
        self.progress = progress
        self.finetune_layers = finetune_layers
        self.max_epochs = max_epochs
        self.extractor = FeatureExtractor(model, threads=threads)
        self.labels = sorted({e.label for e in self.pool})
        if len(self.labels) != 2:
            raise DataError(
                "E367",
                f"The training audit compares two classes; these examples have "
                f"{len(self.labels)} ({', '.join(map(str, self.labels))}). Map the labels to "
                "two classes (e.g. --labels idiomatic=...,literal=...).",
            )
        positive = "idiomatic" if "idiomatic" in self.labels else self.labels[0]
        self.y = np.asarray([int(e.label == positive) for e in self.pool])
        self._features: dict[str, np.ndarray] = {}

    def log(self, message: str) -> None:
        if self.progress:
            print(message, file=sys.stderr, flush=True)

    def inputs(self, setting: str) -> AuditInputs:
        mask = self.extractor.mask_token
        rendered = [render(e, setting, mask) for e in self.pool]
        return AuditInputs(tuple(r[0] for r in rendered), tuple(r[1] for r in rendered))

    def _encoded(self, setting: str) -> np.ndarray:
        if setting not in self._features:
            self.log(f"features: {setting} ({len(self.pool)} examples)")
            self._features[setting] = self.extractor.features(
                self.inputs(setting), cache=self.cache, log=self.log)
        return self._features[setting]

    def features(self, setting: str) -> np.ndarray:
        """The quick backend's features: Default reads the sentence with the expression in
        place *and* the expression's own words (as the paper's Default input holds the PME's
        tokens beside the context), so it sees everything either baseline sees."""
        if setting == "default":
            return np.hstack([self._encoded("default"), self._encoded("only_expression")])
        return self._encoded(setting)

    def _check(self, part: Partition) -> None:
        for name, idx in (("train", part.train), ("dev", part.dev), *part.test.items()):
            if len(idx) == 0:
                raise DataError("E369", f"The '{name}' part of '{part.name}' is empty: the "
                                "audit needs examples in train, dev and every test split.")
        for name, idx in (("train", part.train), ("dev", part.dev)):
            if len(set(self.y[list(idx)].tolist())) < 2:
                raise DataError(
                    "E368",
                    f"The '{name}' part of '{part.name}' has one class only (every example is "
                    f"'{self.pool[idx[0]].label}'); a classifier cannot be trained or selected "
                    "on it. Add examples of the other class or use another split.",
                )

    def run(self, part: Partition) -> dict[str, Any]:
        """Per input setting (``input_settings``): search record and macro-F1 per test split."""
        self._check(part)
        out: dict[str, Any] = {"n_train": len(part.train), "n_dev": len(part.dev),
                               "n_test": {k: len(v) for k, v in part.test.items()},
                               "settings": {}}
        for setting in self.input_settings:
            started = time.perf_counter()
            if self.backend == "quick":
                record, scores = self._run_quick(part, setting)
            else:
                record, scores = self._run_finetune(part, setting)
            record["seconds"] = round(time.perf_counter() - started, 2)
            record["macro_f1"] = scores
            out["settings"][setting] = record
            self.log(f"  {part.name} {setting}: " + ", ".join(
                f"{k} {100 * v:.2f}" for k, v in scores.items())
                + f" (dev {100 * record['dev_macro_f1']:.2f}, {record['seconds']:.0f}s)")
        return out

    def _run_quick(self, part: Partition, setting: str):
        x = self.features(setting)
        tr, dv = list(part.train), list(part.dev)
        head, record = search_head(x[tr], self.y[tr], x[dv], self.y[dv],
                                   trials=self.trials, seed=self.seed)
        scores = {name: _macro_f1(self.y[list(idx)], head.predict(x[list(idx)]))
                  for name, idx in part.test.items()}
        return record, scores

    def _items(self, setting: str, idx: Sequence[int]):
        from ..classify.formats import Item

        mask = self.extractor.mask_token
        items = []
        for i in idx:
            text, span = render(self.pool[i], setting, mask)
            items.append(Item(text=text, idiom=self.pool[i].idiom or "", label=int(self.y[i]),
                              span=span, id=self.pool[i].id))
        return items

    def _run_finetune(self, part: Partition, setting: str):
        classifier, record = search_finetune(
            self._items(setting, part.train), self._items(setting, part.dev),
            trials=self.trials, seed=self.seed, model=self.model, threads=self.threads,
            max_epochs=self.max_epochs, num_layers=self.finetune_layers)
        scores = {}
        for name, idx in part.test.items():
            predicted = classifier.predict(self._items(setting, idx))
            scores[name] = _macro_f1(self.y[list(idx)], np.asarray(predicted).astype(int))
        return record, scores

    def cross_validate(self, mode: str, indices: Sequence[int]) -> dict[str, Any]:
        """5-fold ``mode`` CV over ``indices`` of the pool: per fold and mean ± std."""
        examples = [self.pool[i] for i in indices]
        folds = cv_folds(examples, mode, self.seed)
        runs = []
        for fold in folds:
            local = list(indices)
            part = Partition(f"{mode} fold {fold.index + 1}", [local[i] for i in fold.train],
                             [local[i] for i in fold.dev],
                             {"test": [local[i] for i in fold.test]})
            run = self.run(part)
            run["test_seen_expressions"] = check_expression_disjoint(examples, fold)
            runs.append(run)
        summary = {}
        for setting in self.input_settings:
            values = [r["settings"][setting]["macro_f1"]["test"] for r in runs]
            summary[setting] = {"mean": float(np.mean(values)), "std": float(np.std(values)),
                                "folds": values}
        return {"mode": mode, "n": len(indices), "folds": runs, "macro_f1": summary}


def relative_drop(value: float, default: float) -> float | None:
    """``(value - default) / default`` (the paper's bracketed percentages, as a fraction).

    >>> round(relative_drop(89.14, 94.72), 3)
    -0.059
    """
    return (value - default) / default if default else None


def validate_inputs(inputs: Sequence[str]) -> tuple[str, ...]:
    """The input settings to train, in :data:`SETTINGS` order (a subset runs only those, e.g.
    to give one setting a larger search).

    >>> validate_inputs(["masked", "default"])
    ('default', 'masked')
    """
    bad = [s for s in inputs if s not in SETTINGS]
    if bad or not inputs:
        raise ConfigError("E487", f"Unknown or no input setting {bad[0] if bad else ''!r}. "
                          f"Available: {', '.join(SETTINGS)} (comma-separated, any subset).")
    return tuple(s for s in SETTINGS if s in inputs)


def validate_modes(modes: Sequence[str]) -> list[str]:
    """The CV modes to run, checked against :data:`~idiomkit.audit.splits.MODES`."""
    bad = [m for m in modes if m not in MODES]
    if bad:
        raise ConfigError("E480", f"Unknown CV split '{bad[0]}'. Available: "
                          f"{', '.join(MODES)} (or none).")
    return list(dict.fromkeys(modes))


def default_cache_note() -> Path:
    """Where the quick backend caches features (``<cache_dir>/audit-features``)."""
    from ..models.resolve import cache_dir

    return cache_dir() / "audit-features"
