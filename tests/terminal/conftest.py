"""The terminal's tests keep their records and prompt history in a temporary folder, never in
the user's own (the ``cathedral`` processes they start inherit the environment)."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _records_in_tmp(tmp_path, monkeypatch):
    monkeypatch.setenv("CATHEDRAL_RECORDS", str(tmp_path / "data" / "records"))
