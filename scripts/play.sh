#!/usr/bin/env bash
# Installs cathedral into .venv (on a fresh clone too) and starts the main job: a game of
# classic Cathedral in the terminal against the computer. Extra arguments go to `cathedral play`.
#
# The install is editable, so code changes need no reinstall; pip runs again only when
# pyproject.toml (version, dependencies, entry points) differs from the one last installed,
# which the stamp .venv/.cathedral-installed remembers. After the first run it starts at once.
set -euo pipefail
cd "$(dirname "$0")/.."
stamp=.venv/.cathedral-installed
wanted="$(cksum < pyproject.toml)"
if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
if [ ! -x .venv/bin/cathedral ] || [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$wanted" ]; then
    echo "Installing cathedral into .venv (once; again only when pyproject.toml changes)..." >&2
    .venv/bin/python -m pip install -q -e .
    printf '%s\n' "$wanted" > "$stamp"
fi
if [ $# -eq 0 ]; then set -- classic --light human --dark greedy; fi
exec .venv/bin/cathedral play "$@"
