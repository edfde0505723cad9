"""The 80 golden tables of ../shared/rules/golden-tables.json (an independent implementation)."""

from __future__ import annotations

import json

import pytest

from scoring import settle
from tests.scoring.helpers import GOLDEN


def _cases() -> list:
    if not GOLDEN.exists():
        return [pytest.param(None, id="missing", marks=pytest.mark.skip(
            reason=f"golden tables not found at {GOLDEN} (the shared rules folder beside the repo)"))]
    data = json.loads(GOLDEN.read_text(encoding="utf-8"))
    return [pytest.param(case, id=f"{i:02d}-{case['table']['rules']}") for i, case in enumerate(data)]


def test_golden_file_has_80_tables() -> None:
    if not GOLDEN.exists():
        pytest.skip(f"golden tables not found at {GOLDEN}")
    assert len(json.loads(GOLDEN.read_text(encoding="utf-8"))) == 80


@pytest.mark.parametrize("case", _cases())
def test_golden_table(case: dict) -> None:
    expected = case["expected"]
    result = settle(case["table"])
    if "error" in expected:
        assert expected["error"] == "foul"
        assert result.rejected
        assert sorted(result.fouls) == sorted(expected["fouls"])
        out = result.to_json()
        assert out["error"] == "foul" and set(out["suggestions"]) == set(expected["fouls"])
    else:
        assert not result.rejected
        assert result.totals == expected["totals"]
        assert sorted(result.fouls) == sorted(expected["fouls"])
        assert sum(result.totals.values()) == 0
