"""The architecture's import contracts ([tool.importlinter] in pyproject.toml) are kept: core
below the games below the AI below the front ends, no game importing another, no import
circle inside a package. scripts/test.sh runs ``lint-imports`` too; this keeps a bare pytest
run from missing it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_the_import_contracts_are_kept():
    pytest.importorskip("importlinter")
    run = subprocess.run(
        [sys.executable, "-c", "import sys; from importlinter.cli import lint_imports; "
         "sys.exit(lint_imports(no_cache=True, no_logo=True))"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    assert run.returncode == 0, run.stdout + run.stderr
