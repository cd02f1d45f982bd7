# The two commands of the README: `make install` and `make test` (.ci/run runs `make test`).
.PHONY: install test lint bench eval

.install-stamp: pyproject.toml scripts/install.sh scripts/install_wordnet.sh
	bash scripts/install.sh

install: .install-stamp

# Installs first if needed, so it also works on a fresh clone.
test: .install-stamp
	.venv/bin/python -m pytest

lint: .install-stamp
	.venv/bin/ruff check src tests

bench: .install-stamp
	.venv/bin/idiomkit bench find --runs 3

eval: .install-stamp
	.venv/bin/idiomkit eval identification --dataset idem --split test
