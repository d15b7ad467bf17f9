#!/usr/bin/env bash
# Installs cathedral with its web extra into .venv (on a fresh clone too; afterwards only when
# pyproject.toml changes) and starts the game server on its embedded SQLite database. It prints
# the address to open in a browser. Extra arguments go to `cathedral serve` (--port 8080,
# --host 0.0.0.0 to let other machines in, --db postgresql://...).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh web
exec .venv/bin/cathedral serve "$@"
