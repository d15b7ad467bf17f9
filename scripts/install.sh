#!/usr/bin/env bash
# Makes sure .venv holds cathedral with the given extras (editable install), on a fresh clone
# too; pip runs only when pyproject.toml or the extras differ from the last install, which the
# stamp .venv/.cathedral-installed-<extras> remembers. Usage: bash scripts/install.sh [web]
set -euo pipefail
cd "$(dirname "$0")/.."
extras="${1:-}"
stamp=".venv/.cathedral-installed${extras:+-$extras}"
wanted="$(cksum < pyproject.toml)"
if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
if [ ! -x .venv/bin/cathedral ] || [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$wanted" ]; then
    echo "Installing cathedral${extras:+[$extras]} into .venv (once; again only when pyproject.toml changes)..." >&2
    .venv/bin/python -m pip install -q -e ".${extras:+[$extras]}"
    printf '%s\n' "$wanted" > "$stamp"
fi
