"""Prompt templates: versioned files under ``llm/templates/`` (see the README there).

>>> template = load_template("idiots-detection")
>>> template.key, template.fields
('idiots-detection.v1', ('sentence',))
>>> [m["role"] for m in template.render(sentence="He spilled the beans.")]
['system', 'user']
>>> template.render(sentence="He spilled the beans.")[1]["content"]
'He spilled the beans.'
>>> template.system.startswith("You are a professional linguist specialising in figurative")
True
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from string import Template

from ..errors import ConfigError
from .base import Message

_FILE_RE = re.compile(r"^(?P<name>[a-z0-9-]+)\.v(?P<version>\d+)\.(?P<role>system|user)\.txt$")


@dataclass(frozen=True)
class PromptTemplate:
    """A task's messages with ``${field}`` placeholders; ``sha256`` keys the answer cache."""

    name: str
    version: int
    user: str
    system: str | None = None

    @property
    def key(self) -> str:
        return f"{self.name}.v{self.version}"

    @property
    def sha256(self) -> str:
        text = f"{self.system or ''}\x00{self.user}"
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    @property
    def fields(self) -> tuple[str, ...]:
        """Placeholder names, in order of first use."""
        found: list[str] = []
        for part in (self.system or "", self.user):
            for match in Template.pattern.finditer(part):
                name = match.group("named") or match.group("braced")
                if name and name not in found:
                    found.append(name)
        return tuple(found)

    def render(self, **values: object) -> list[Message]:
        """The chat messages with every placeholder filled (a missing value is an error)."""
        missing = [f for f in self.fields if f not in values]
        if missing:
            raise ConfigError(
                "E435", f"Template '{self.key}' needs {', '.join(repr(m) for m in missing)}. "
                f"Got {', '.join(sorted(values)) or 'nothing'}."
            )
        text = {k: str(v) for k, v in values.items()}
        messages: list[Message] = []
        if self.system is not None:
            messages.append({"role": "system", "content": Template(self.system).substitute(text)})
        messages.append({"role": "user", "content": Template(self.user).substitute(text)})
        return messages


def _read(name: str) -> str:
    text = (resources.files("idiomkit.llm") / "templates" / name).read_text(encoding="utf-8")
    return text[:-1] if text.endswith("\n") else text


@cache
def available_templates() -> dict[str, tuple[int, ...]]:
    """Template names and their versions, oldest first."""
    versions: dict[str, set[int]] = {}
    for entry in (resources.files("idiomkit.llm") / "templates").iterdir():
        match = _FILE_RE.match(entry.name)
        if match:
            versions.setdefault(match["name"], set()).add(int(match["version"]))
    return {name: tuple(sorted(v)) for name, v in sorted(versions.items())}


@cache
def load_template(name: str, version: int | None = None) -> PromptTemplate:
    """Template ``name`` at ``version`` (default: the latest)."""
    known = available_templates()
    if name not in known:
        raise ConfigError(
            "E436", f"Unknown prompt template '{name}'. Available: {', '.join(known)}."
        )
    version = known[name][-1] if version is None else int(version)
    if version not in known[name]:
        raise ConfigError(
            "E436", f"Prompt template '{name}' has no version {version}. Available: "
            f"{', '.join(f'v{v}' for v in known[name])}."
        )
    stem = f"{name}.v{version}"
    names = {e.name for e in (resources.files("idiomkit.llm") / "templates").iterdir()}
    if f"{stem}.user.txt" not in names:
        raise ConfigError("E436", f"Prompt template '{stem}' has no user message file.")
    system = _read(f"{stem}.system.txt") if f"{stem}.system.txt" in names else None
    return PromptTemplate(name=name, version=version, user=_read(f"{stem}.user.txt"),
                          system=system)
