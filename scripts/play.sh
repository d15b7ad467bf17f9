#!/usr/bin/env bash
# Installs cathedral into .venv (on a fresh clone too; afterwards only when pyproject.toml
# changes, see install.sh) and starts a game of classic Cathedral in the terminal against the
# computer. Extra arguments go to `cathedral play`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh
if [ $# -eq 0 ]; then set -- classic --light human --dark greedy; fi
exec .venv/bin/cathedral play "$@"
