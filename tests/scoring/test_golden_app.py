"""The 60 golden tables of preset `app` (../shared/rules/golden-tables-app.json, an independent
implementation): totals, or the 相公 rejection, a third of them with special hands."""

from __future__ import annotations

import json

import pytest

from scoring import settle
from tests.scoring.helpers import GOLDEN_APP, check_golden, golden_cases


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


@pytest.mark.parametrize(
    "case", golden_cases(GOLDEN_APP, lambda i, case: f"{i:02d}-{len(case['table']['players'])}p"))
def test_golden_app_table(case: dict) -> None:
    check_golden(case)
