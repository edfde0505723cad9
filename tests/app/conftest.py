"""Shared fixtures: every app test gets its own ledger file through SHISANSHUI_LEDGER."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = json.loads((ROOT / "assets" / "sample.json").read_text(encoding="utf-8"))


@pytest.fixture
def ledger_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "ledger.sqlite3"
    monkeypatch.setenv("SHISANSHUI_LEDGER", str(path))
    return path
