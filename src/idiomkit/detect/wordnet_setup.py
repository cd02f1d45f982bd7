"""Make NLTK's WordNet available, using Debian's ``wordnet-base`` files when needed.

The IDEM rule-based finder lemmatises with NLTK's ``WordNetLemmatizer``, which needs the WordNet
3.0 database under ``<nltk_data>/corpora/wordnet/``. Offline machines often cannot run
``nltk.download("wordnet")``, but Debian/Ubuntu ship the same database in the ``wordnet-base``
package (``/usr/share/wordnet``), with ``index.sense`` apart in ``wordnet-sense-index``. Debian
leaves out one small file NLTK reads, ``lexnames`` (the 45 lexicographer file names); it is
embedded below.

:func:`ensure_wordnet` returns at once when NLTK can already load WordNet. Otherwise it copies
the Debian files into ``<sys.prefix>/share/nltk_data/corpora/wordnet/`` (a directory on NLTK's
default search path), adds ``lexnames`` and loads again. When neither route works it raises
:class:`~idiomkit.errors.MissingDependencyError` saying what to install:

* ``E501``: the ``nltk`` package is missing (``pip install 'idiomkit[idem]'``);
* ``E502``: no WordNet data (``apt-get install wordnet-base wordnet-sense-index``, or
  ``nltk.download("wordnet")``).
"""

from __future__ import annotations

import os
import shutil
import sys
import threading
from pathlib import Path

from ..errors import MissingDependencyError

#: Where Debian's ``wordnet-base`` package puts the WordNet 3.0 database.
DEBIAN_WORDNET_DIR = Path("/usr/share/wordnet")

#: The database files NLTK's WordNet reader opens (``lexnames`` is written from
#: :data:`LEXNAMES`).
WORDNET_FILES = (
    "cntlist.rev",
    "index.sense",
    "index.adj",
    "index.adv",
    "index.noun",
    "index.verb",
    "data.adj",
    "data.adv",
    "data.noun",
    "data.verb",
    "adj.exc",
    "adv.exc",
    "noun.exc",
    "verb.exc",
)

#: WordNet 3.0's ``lexnames`` file: number, lexicographer file name, syntactic category.
LEXNAMES = (
    "00\tadj.all\t3\n"
    "01\tadj.pert\t3\n"
    "02\tadv.all\t4\n"
    "03\tnoun.Tops\t1\n"
    "04\tnoun.act\t1\n"
    "05\tnoun.animal\t1\n"
    "06\tnoun.artifact\t1\n"
    "07\tnoun.attribute\t1\n"
    "08\tnoun.body\t1\n"
    "09\tnoun.cognition\t1\n"
    "10\tnoun.communication\t1\n"
    "11\tnoun.event\t1\n"
    "12\tnoun.feeling\t1\n"
    "13\tnoun.food\t1\n"
    "14\tnoun.group\t1\n"
    "15\tnoun.location\t1\n"
    "16\tnoun.motive\t1\n"
    "17\tnoun.object\t1\n"
    "18\tnoun.person\t1\n"
    "19\tnoun.phenomenon\t1\n"
    "20\tnoun.plant\t1\n"
    "21\tnoun.possession\t1\n"
    "22\tnoun.process\t1\n"
    "23\tnoun.quantity\t1\n"
    "24\tnoun.relation\t1\n"
    "25\tnoun.shape\t1\n"
    "26\tnoun.state\t1\n"
    "27\tnoun.substance\t1\n"
    "28\tnoun.time\t1\n"
    "29\tverb.body\t2\n"
    "30\tverb.change\t2\n"
    "31\tverb.cognition\t2\n"
    "32\tverb.communication\t2\n"
    "33\tverb.competition\t2\n"
    "34\tverb.consumption\t2\n"
    "35\tverb.contact\t2\n"
    "36\tverb.creation\t2\n"
    "37\tverb.emotion\t2\n"
    "38\tverb.motion\t2\n"
    "39\tverb.perception\t2\n"
    "40\tverb.possession\t2\n"
    "41\tverb.social\t2\n"
    "42\tverb.stative\t2\n"
    "43\tverb.weather\t2\n"
    "44\tadj.ppl\t3\n"
)

_lock = threading.Lock()
_ready = False


def nltk_wordnet_dir() -> Path:
    """The WordNet directory :func:`ensure_wordnet` fills: ``<sys.prefix>/share/nltk_data/...``."""
    return Path(sys.prefix) / "share" / "nltk_data" / "corpora" / "wordnet"


def ensure_wordnet(debian_dir: str | os.PathLike[str] | None = None) -> None:
    """Make sure ``nltk.corpus.wordnet`` loads; install it from Debian's files if needed.

    Safe to call often: after the first success it returns immediately.
    """
    global _ready
    if _ready:
        return
    with _lock:
        if _ready:
            return
        try:
            import nltk  # noqa: F401
        except ImportError:
            raise MissingDependencyError(
                "E501",
                "The 'idem-rules' method needs NLTK. Install it with "
                "pip install 'idiomkit[idem]' (or pip install nltk).",
            ) from None
        if _wordnet_loads():
            _ready = True
            return
        source = Path(debian_dir) if debian_dir is not None else DEBIAN_WORDNET_DIR
        missing = [name for name in WORDNET_FILES if not (source / name).is_file()]
        if missing:
            raise MissingDependencyError(
                "E502",
                "The 'idem-rules' method needs the WordNet 3.0 database, which NLTK cannot "
                f"find and which is not in {source} (missing: {', '.join(missing[:3])}"
                f"{', ...' if len(missing) > 3 else ''}). Install it with "
                "apt-get install wordnet-base wordnet-sense-index (or "
                "scripts/install_wordnet.sh), or run "
                "python -m nltk.downloader wordnet.",
            )
        target = nltk_wordnet_dir()
        try:
            _install_from(source, target)
        except OSError as exc:
            raise MissingDependencyError(
                "E502",
                f"Could not copy WordNet from {source} to {target} ({exc}). Make that "
                "directory writable, or run python -m nltk.downloader wordnet.",
            ) from None
        if not _wordnet_loads(reset=True):
            raise MissingDependencyError(
                "E502",
                f"WordNet was copied to {target} but NLTK still cannot load it. Remove that "
                "directory and run python -m nltk.downloader wordnet, or reinstall "
                "wordnet-base (apt-get install --reinstall wordnet-base wordnet-sense-index).",
            )
        _ready = True


def _install_from(source: Path, target: Path) -> None:
    target.mkdir(parents=True, exist_ok=True)
    for name in WORDNET_FILES:
        shutil.copyfile(source / name, target / name)
    for extra in ("LICENSE", "README", "citation.bib"):
        if (source / extra).is_file():
            shutil.copyfile(source / extra, target / extra)
    (target / "lexnames").write_text(LEXNAMES, encoding="utf-8")


def _wordnet_loads(reset: bool = False) -> bool:
    """True when NLTK can open WordNet (``reset`` forgets an earlier failed lookup)."""
    import nltk
    from nltk.corpus import wordnet

    if reset:
        prefix_dir = str(Path(sys.prefix) / "share" / "nltk_data")
        if prefix_dir not in nltk.data.path:
            nltk.data.path.append(prefix_dir)
    try:
        wordnet.ensure_loaded()
        wordnet.synsets("dog")
    except (LookupError, OSError, AssertionError, ValueError):
        return False
    return True
