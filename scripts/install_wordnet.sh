#!/usr/bin/env bash
# Install the WordNet 3.0 database that the 'idem-rules' method (NLTK's WordNet lemmatizer)
# needs. On Debian/Ubuntu the 'wordnet-base' package puts it in /usr/share/wordnet; idiomkit's
# ensure_wordnet() copies it into <venv>/share/nltk_data on first use (adding 'lexnames').
#
# Usage: scripts/install_wordnet.sh [PYTHON]
#   PYTHON (optional): an interpreter with idiomkit installed; when given, WordNet is also set up
#   for it right away (ensure_wordnet()), so the first match does not pay for the copy.
set -euo pipefail

WORDNET_DIR=/usr/share/wordnet

if [ -f "$WORDNET_DIR/data.noun" ] && [ -f "$WORDNET_DIR/index.noun" ]; then
    echo "WordNet found in $WORDNET_DIR"
else
    if ! command -v apt-get >/dev/null 2>&1; then
        echo "apt-get not found: install WordNet 3.0 another way, e.g." >&2
        echo "  python -m nltk.downloader wordnet" >&2
        exit 1
    fi
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then
        if command -v sudo >/dev/null 2>&1; then
            SUDO="sudo"
        else
            echo "Installing wordnet-base needs root (apt-get). Run this script as root." >&2
            exit 1
        fi
    fi
    echo "Installing wordnet-base (apt-get)..."
    $SUDO apt-get update
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends wordnet-base
fi

if [ "$#" -ge 1 ]; then
    "$1" -c "from idiomkit.detect.wordnet_setup import ensure_wordnet; ensure_wordnet()"
    echo "NLTK WordNet ready for $1"
fi
