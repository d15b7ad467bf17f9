#!/usr/bin/env bash
# Installs everything the tests need into .venv (on a fresh clone too), then runs ruff and the
# whole test suite. Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e '.[test]'
.venv/bin/ruff check src tests benchmarks
.venv/bin/python -m pytest "$@"
