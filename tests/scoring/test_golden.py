"""The 80 golden tables of ../shared/rules/golden-tables.json (an independent implementation)."""

from __future__ import annotations

import json

import pytest

from tests.scoring.helpers import GOLDEN, check_golden, golden_cases


def test_golden_file_has_80_tables() -> None:
    if not GOLDEN.exists():
        pytest.skip(f"golden tables not found at {GOLDEN}")
    assert len(json.loads(GOLDEN.read_text(encoding="utf-8"))) == 80


@pytest.mark.parametrize("case", golden_cases(GOLDEN, lambda i, case: f"{i:02d}-{case['table']['rules']}"))
def test_golden_table(case: dict) -> None:
    check_golden(case)
