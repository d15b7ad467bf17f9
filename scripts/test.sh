#!/usr/bin/env bash
# Installs everything the tests need into .venv (on a fresh clone too), then runs ruff, the
# architecture's import contracts (lint-imports, [tool.importlinter] in pyproject.toml), ESLint
# and TypeScript's checker over the browser code (node_modules/, from package-lock.json), and
# the whole test suite. Extra arguments go to pytest.
#
# The tests start real services themselves (PostgreSQL, a browser) on temporary directories
# and free ports; this script only makes sure Debian's packages for them are installed.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1 || need+=(postgresql)
command -v redis-server >/dev/null 2>&1 || need+=(redis-server)
command -v npm >/dev/null 2>&1 || need+=(nodejs npm)
if [ ${#need[@]} -gt 0 ]; then
    if [ "$(id -u)" -eq 0 ]; then
        echo "installing Debian packages: ${need[*]}"
        apt-get update -q
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${need[@]}"
    else
        echo "missing Debian packages (tests that need them are skipped): ${need[*]}" >&2
    fi
fi

python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e '.[test]'
.venv/bin/ruff check src tests benchmarks research
.venv/bin/lint-imports
if command -v npm >/dev/null 2>&1; then
    npm ci --no-audit --no-fund --prefer-offline --loglevel=error >/dev/null
    npx --no-install eslint
    npx --no-install tsc -p tsconfig.json
else
    echo "npm is missing: the browser code is neither linted nor type-checked" >&2
fi
if [ $# -eq 0 ]; then
    # JAX starts threads that a later fork() (process pools, servers, terminals) would copy
    # half-held: its tests run last, in a process of their own.
    .venv/bin/python -m pytest --ignore=tests/jax
    .venv/bin/python -m pytest tests/jax
else
    .venv/bin/python -m pytest "$@"
fi
