"""Which splits an audit compares, for each built-in labelled dataset.

A :class:`Setting` names the training splits (read together) and the evaluation splits each is
compared with. AStitch's settings follow the paper's MAD rows (Boisson et al., Table 1-2): the
zero-shot training data alone, plus the one-shot or the few-shot data; SemEval-2022 Subtask A's
are its zero-shot and one-shot settings. Datasets without an official split use the
deterministic 80/10/10 split of their reader. A dataset that is not listed here is audited
train -> test when it has those splits.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import ConfigError


@dataclass(frozen=True)
class Setting:
    """Training splits (read together) and the splits they are compared with."""

    name: str
    train: tuple[str, ...]
    evaluate: tuple[str, ...]


_MAD = (
    Setting("zero_shot", ("train_zero_shot",), ("dev", "test")),
    Setting("one_shot", ("train_zero_shot", "train_one_shot"), ("dev", "test")),
    Setting("few_shot", ("train_zero_shot", "train_few_shot"), ("dev", "test")),
)
_DERIVED = (Setting("default", ("train",), ("dev", "test")),)

#: the audit settings of each built-in labelled dataset (idiomatic vs literal, and IDEM's
#: emotions, where the lookup asks how far the idiom alone predicts the emotion)
PLANS: dict[str, tuple[Setting, ...]] = {
    "astitch": _MAD,
    "astitch-pt": _MAD,
    "semeval-a": (
        Setting("zero_shot", ("train_zero_shot",), ("dev", "eval")),
        Setting("one_shot", ("train_zero_shot", "train_one_shot"), ("dev", "eval")),
    ),
    "epie-formal": _DERIVED,
    "pie-english": _DERIVED,
    "idem": (Setting("default", ("train",), ("test",)),),
}


def plan_for(name: str, splits: tuple[str, ...]) -> tuple[Setting, ...]:
    """The settings for dataset ``name`` (whose reader offers ``splits``)."""
    if name in PLANS:
        return PLANS[name]
    if "train" in splits and "test" in splits:
        evaluate = tuple(s for s in ("dev", "test") if s in splits)
        return (Setting("default", ("train",), evaluate),)
    raise ConfigError(
        "E471",
        f"Dataset '{name}' has no audit plan and no 'train' and 'test' splits (it has: "
        f"{', '.join(splits)}). Audit one of: {', '.join(sorted(PLANS))}, or pass your data "
        "with --input FILE.",
    )
