"""The 60 golden tables of preset `app` (../shared/rules/golden-tables-app.json, an independent
implementation): totals, or the 相公 rejection, a third of them with special hands."""

from __future__ import annotations

import json

import pytest

from scoring import settle
from tests.scoring.helpers import GOLDEN

GOLDEN_APP = GOLDEN.with_name("golden-tables-app.json")


def _cases() -> list:
    if not GOLDEN_APP.exists():
        return [pytest.param(None, id="missing", marks=pytest.mark.skip(
            reason=f"golden tables not found at {GOLDEN_APP} (the shared rules folder beside the repo)"))]
    data = json.loads(GOLDEN_APP.read_text(encoding="utf-8"))
    return [pytest.param(case, id=f"{i:02d}-{len(case['table']['players'])}p") for i, case in enumerate(data)]


def test_golden_app_file_has_60_app_tables() -> None:
    if not GOLDEN_APP.exists():
        pytest.skip(f"golden tables not found at {GOLDEN_APP}")
    data = json.loads(GOLDEN_APP.read_text(encoding="utf-8"))
    assert len(data) == 60 and {case["table"]["rules"] for case in data} == {"app"}


def test_golden_app_tables_hold_specials() -> None:
    if not GOLDEN_APP.exists():
        pytest.skip(f"golden tables not found at {GOLDEN_APP}")
    declared = [settle(case["table"]).specials for case in json.loads(GOLDEN_APP.read_text(encoding="utf-8"))]
    assert sum(bool(d) for d in declared) >= 15 and sum(len(d) >= 2 for d in declared) >= 5


@pytest.mark.parametrize("case", _cases())
def test_golden_app_table(case: dict) -> None:
    expected = case["expected"]
    result = settle(case["table"])
    if "error" in expected:
        assert expected["error"] == "foul"
        assert result.rejected
        assert sorted(result.fouls) == sorted(expected["fouls"])
        assert set(result.to_json()["suggestions"]) == set(expected["fouls"])
    else:
        assert not result.rejected
        assert result.totals == expected["totals"]
        assert sorted(result.fouls) == sorted(expected["fouls"])
        assert sum(result.totals.values()) == 0
