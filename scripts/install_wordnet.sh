#!/usr/bin/env bash
# Install the WordNet 3.0 database that the 'idem-rules' method (NLTK's WordNet lemmatizer)
# needs. On Debian/Ubuntu the 'wordnet-base' package puts it in /usr/share/wordnet; idiomkit's
# ensure_wordnet() copies it into <venv>/share/nltk_data on first use (adding 'lexnames').
#
# Usage: scripts/install_wordnet.sh [PYTHON]
#   PYTHON (optional): an interpreter with idiomkit installed; WordNet is then also set up for
#   it right away (ensure_wordnet()), so the first match does not pay for the copy.
#
# Only 'idem-rules' needs WordNet, so a failure here warns and exits 0: that method then raises
# error E502 saying what to install, and everything else works.
set -uo pipefail

WORDNET_DIR=/usr/share/wordnet
PYTHON="${1:-}"

warn() { echo "install_wordnet.sh: warning: $*" >&2; }

# Debian ships index.sense apart, in wordnet-sense-index; NLTK's reader wants it too.
have_debian_wordnet() {
    [ -f "$WORDNET_DIR/data.noun" ] && [ -f "$WORDNET_DIR/index.noun" ] \
        && [ -f "$WORDNET_DIR/index.sense" ]
}

if have_debian_wordnet; then
    echo "WordNet found in $WORDNET_DIR"
elif command -v apt-get >/dev/null 2>&1; then
    SUDO=""
    if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1; then
        SUDO="sudo"
    fi
    echo "Installing wordnet-base and wordnet-sense-index (apt-get)..."
    if ! { $SUDO apt-get update \
           && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends \
              wordnet-base wordnet-sense-index; }; then
        warn "apt-get could not install wordnet-base/wordnet-sense-index (run this script as root?)."
    fi
else
    warn "no apt-get on this system: WordNet must come from NLTK's downloader."
fi

if [ -n "$PYTHON" ]; then
    if "$PYTHON" -c "from idiomkit.detect.wordnet_setup import ensure_wordnet; ensure_wordnet()"
    then
        echo "NLTK WordNet ready for $PYTHON"
    elif "$PYTHON" -m nltk.downloader -q wordnet \
        && "$PYTHON" -c "from idiomkit.detect.wordnet_setup import ensure_wordnet; ensure_wordnet()"
    then
        echo "NLTK WordNet downloaded for $PYTHON"
    else
        warn "WordNet is not available; the 'idem-rules' method will not work until it is" \
             "(apt-get install wordnet-base, or $PYTHON -m nltk.downloader wordnet)."
    fi
elif ! have_debian_wordnet; then
    warn "WordNet is still missing; install wordnet-base or run python -m nltk.downloader wordnet."
fi
exit 0
