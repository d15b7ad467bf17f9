"""The README's Python example runs as written, and its two commands exist."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_python_example_runs(capsys):
    text = README.read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert blocks
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})
    out = capsys.readouterr().out
    assert "wins" in out or "Draw" in out


def test_readme_commands_are_the_scripts_ci_uses():
    text = README.read_text(encoding="utf-8")
    assert "bash scripts/play.sh" in text and "bash scripts/test.sh" in text
    ci = (README.parent / ".ci" / "run").read_text(encoding="utf-8")
    assert "bash scripts/test.sh" in ci
