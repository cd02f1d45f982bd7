"""Model cards: what a trained model saw, how it was configured, how well it did, and the
command that rebuilds it. Written beside the weights as ``card.json`` (read back by the loader)
and ``README.md`` (for people).
"""

from __future__ import annotations

import json
import platform
import sys
from dataclasses import asdict, fields
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

CARD_FILE = "card.json"
README_FILE = "README.md"
#: version of the card layout; bump it when a key changes meaning
CARD_SCHEMA = 1


class CardConfig:
    """Mixin for the dataclass configs a card records: ``to_dict`` for the card, ``from_dict``
    to rebuild the config from it (keys this version does not know are ignored)."""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)  # type: ignore[call-overload]

    @classmethod
    def from_dict(cls, data: dict[str, Any]):
        names = {f.name for f in fields(cls)}  # type: ignore[arg-type]
        return cls(**{k: v for k, v in data.items() if k in names})


def make_card(name: str, task: str, config: dict[str, Any], data: dict[str, Any],
              metrics: dict[str, Any], seed: int, command: list[str] | None = None,
              notes: str = "", training: dict[str, Any] | None = None) -> dict[str, Any]:
    """A card: ``config`` is what the loader needs to rebuild the model; ``data`` names the
    training data (datasets, splits, sizes, licences); ``metrics`` the held-out results."""
    from ..evaluate.results import git_info, package_versions

    return {
        "schema": CARD_SCHEMA,
        "name": name,
        "task": task,
        "config": config,
        "data": data,
        "metrics": metrics,
        "seed": seed,
        "training": training or {},
        "command": _as_typed(list(sys.argv) if command is None else list(command)),
        "notes": notes,
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "git": git_info(),
        "versions": package_versions(),
        "python": platform.python_version(),
    }


def _as_typed(command: list[str]) -> list[str]:
    """The command as a user types it: ``.venv/bin/idiomkit`` becomes ``idiomkit``.

    >>> _as_typed([".venv/bin/idiomkit", "train", "default"])
    ['idiomkit', 'train', 'default']
    """
    if command and Path(command[0]).name == "idiomkit":
        command[0] = "idiomkit"
    return command


def write_card(directory: str | Path, card: dict[str, Any]) -> None:
    """Write ``card.json`` and its Markdown rendering ``README.md`` into ``directory``."""
    directory = Path(directory)
    (directory / CARD_FILE).write_text(json.dumps(card, indent=2, ensure_ascii=False) + "\n",
                                       encoding="utf-8")
    (directory / README_FILE).write_text(render_card(card), encoding="utf-8")


def render_card(card: dict[str, Any]) -> str:
    """The card as Markdown.

    >>> print(render_card({"name": "m", "task": "t", "config": {"a": 1}, "data": {},
    ...                    "metrics": {"dev": {"macro_f1": 0.5}}, "seed": 0,
    ...                    "command": ["idiomkit", "train"]}).splitlines()[0])
    # m
    """
    lines = [f"# {card['name']}", "", f"Task: {card['task']}. Seed: {card['seed']}.", ""]
    if card.get("notes"):
        lines += [card["notes"], ""]
    lines += ["## Reproduce", "", "```", " ".join(card.get("command", [])), "```", ""]
    for section in ("config", "data", "training", "metrics"):
        if card.get(section):
            lines += [f"## {section.capitalize()}", "", "```json",
                      json.dumps(card[section], indent=2, ensure_ascii=False), "```", ""]
    return "\n".join(lines)
