"""``scripts/play.sh`` and ``scripts/serve.sh`` (both through ``scripts/install.sh``): a full
install on a fresh clone, none on later runs, one again when pyproject.toml changes. Python,
pip and cathedral are stand-ins that log their calls, so the test needs no network and checks
what the script runs, not how long it takes."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

FAKE_PYTHON = """#!/bin/sh
echo "python $*" >> "$LOG"
if [ "$1" = "-m" ] && [ "$2" = "venv" ]; then
    mkdir -p "$3/bin"
    cp "$0" "$3/bin/python"
fi
if [ "$1" = "-m" ] && [ "$2" = "pip" ]; then
    printf '#!/bin/sh\\necho "cathedral $*" >> "$LOG"\\n' > .venv/bin/cathedral
    chmod +x .venv/bin/cathedral
fi
"""


def _scripts(tmp_path: Path) -> tuple[Path, Callable[..., list[str]]]:
    """A clone holding only the scripts and a pyproject.toml, and a runner that returns what
    the stand-ins logged for one script run."""
    clone = tmp_path / "clone"
    (clone / "scripts").mkdir(parents=True)
    for script in ("play.sh", "serve.sh", "install.sh"):
        shutil.copy(ROOT / "scripts" / script, clone / "scripts" / script)
    (clone / "pyproject.toml").write_text('[project]\nname = "cathedral"\nversion = "0.1.0"\n')
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "python3").write_text(FAKE_PYTHON)
    (bin_dir / "python3").chmod(0o755)
    log = tmp_path / "log"
    env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}", "LOG": str(log)}

    def run(script: str, *args: str) -> list[str]:
        log.write_text("")
        subprocess.run(["bash", str(clone / "scripts" / script), *args], env=env,
                       check=True, capture_output=True, timeout=60)
        return log.read_text().splitlines()

    return clone, run


def test_play_script_installs_once_and_again_only_when_pyproject_changes(tmp_path):
    clone, run = _scripts(tmp_path)
    assert run("play.sh") == [
        "python -m venv .venv",
        "python -m pip install -q -e .",
        "cathedral play classic --light human --dark greedy",
    ]
    assert run("play.sh", "red", "--players", "2") == ["cathedral play red --players 2"]
    (clone / "pyproject.toml").write_text('[project]\nname = "cathedral"\nversion = "0.2.0"\n')
    assert run("play.sh") == [
        "python -m pip install -q -e .",
        "cathedral play classic --light human --dark greedy",
    ]
    assert run("play.sh") == ["cathedral play classic --light human --dark greedy"]


def test_serve_script_installs_the_web_extra_once_and_starts_the_server(tmp_path):
    _, run = _scripts(tmp_path)
    assert run("serve.sh") == [
        "python -m venv .venv",
        "python -m pip install -q -e .[web]",
        "cathedral serve",
    ]
    assert run("serve.sh", "--port", "8080") == ["cathedral serve --port 8080"]
    # The terminal game's plain install is its own (the web extra's stamp does not count).
    assert run("play.sh") == [
        "python -m pip install -q -e .",
        "cathedral play classic --light human --dark greedy",
    ]
