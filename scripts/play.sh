#!/usr/bin/env bash
# Installs cathedral into .venv (on a fresh clone too) and starts the main job: a game of
# classic Cathedral in the terminal against the computer. Extra arguments go to `cathedral play`.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install -q -e .
if [ $# -eq 0 ]; then set -- classic --light human --dark greedy; fi
exec .venv/bin/cathedral play "$@"
