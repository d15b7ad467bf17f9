"""``scripts/play.sh``: a full install on a fresh clone, none on later runs, one again when
pyproject.toml changes. Python, pip and cathedral are stand-ins that log their calls, so the
test needs no network and checks what the script runs, not how long it takes."""

from __future__ import annotations

import os
import shutil
import subprocess
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


def test_play_script_installs_once_and_again_only_when_pyproject_changes(tmp_path):
    clone = tmp_path / "clone"
    (clone / "scripts").mkdir(parents=True)
    shutil.copy(ROOT / "scripts" / "play.sh", clone / "scripts" / "play.sh")
    (clone / "pyproject.toml").write_text('[project]\nname = "cathedral"\nversion = "0.1.0"\n')
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "python3").write_text(FAKE_PYTHON)
    (bin_dir / "python3").chmod(0o755)
    log = tmp_path / "log"
    env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}", "LOG": str(log)}

    def play(*args: str) -> list[str]:
        log.write_text("")
        subprocess.run(["bash", str(clone / "scripts" / "play.sh"), *args], env=env,
                       check=True, capture_output=True, timeout=60)
        return log.read_text().splitlines()

    assert play() == [
        "python -m venv .venv",
        "python -m pip install -q -e .",
        "cathedral play classic --light human --dark greedy",
    ]
    assert play("red", "--players", "2") == ["cathedral play red --players 2"]
    (clone / "pyproject.toml").write_text('[project]\nname = "cathedral"\nversion = "0.2.0"\n')
    assert play() == [
        "python -m pip install -q -e .",
        "cathedral play classic --light human --dark greedy",
    ]
    assert play() == ["cathedral play classic --light human --dark greedy"]
