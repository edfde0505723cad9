"""Small builders shared by the scoring tests: tables from compact strings, random deals."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from scoring import settle
from scoring.cards import JOKERS, STANDARD_DECK, Card, format_cards
from scoring.rules import RuleSet
from scoring.suggest import suggest_arrangement

REPO = Path(__file__).resolve().parents[2]
GOLDEN = REPO / ".." / "shared" / "rules" / "golden-tables.json"
GOLDEN_APP = GOLDEN.with_name("golden-tables-app.json")


def golden_cases(path: Path, name: Callable[[int, dict], str]) -> list:
    """One pytest param per golden table of `path` (`name(i, case)` its id), or one skipped param."""
    if not path.exists():
        return [pytest.param(None, id="missing", marks=pytest.mark.skip(
            reason=f"golden tables not found at {path} (the shared rules folder beside the repo)"))]
    data = json.loads(path.read_text(encoding="utf-8"))
    return [pytest.param(case, id=name(i, case)) for i, case in enumerate(data)]


def check_golden(case: dict) -> None:
    """`settle` gives a golden table's totals and fouls, or its 相公 rejection with suggestions."""
    expected = case["expected"]
    result = settle(case["table"])
    assert sorted(result.fouls) == sorted(expected["fouls"])
    if "error" in expected:
        assert expected["error"] == "foul"
        assert result.rejected
        out = result.to_json()
        assert out["error"] == "foul" and set(out["suggestions"]) == set(expected["fouls"])
    else:
        assert not result.rejected
        assert result.totals == expected["totals"]
        assert sum(result.totals.values()) == 0


def player(name: str, head: str, middle: str, tail: str, **extra: Any) -> dict[str, Any]:
    return {"name": name, "head": head, "middle": middle, "tail": tail, **extra}


def table(rules: str, *players: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"rules": rules, "players": list(players), **extra}


def deck(jokers: int = 0, extra_suit: str | None = None) -> list[Card]:
    cards = list(STANDARD_DECK)
    if extra_suit:
        cards += [c for c in STANDARD_DECK if c.suit == extra_suit]
    cards += list(JOKERS.values())[:jokers]
    return cards


def random_hands(rng: random.Random, n: int, *, jokers: int = 0, extra_suit: str | None = None,
                 legal: RuleSet | None = None, foul_rate: float = 0.0) -> list[dict[str, str]]:
    """`n` players' rows from one shuffled deck.  With `legal`, each hand is laid out legally under
    those rules (the fallback arranger), except with probability `foul_rate` it is cut at random
    (mostly 相公); without, every hand is cut at random."""
    cards = deck(jokers, extra_suit)
    rng.shuffle(cards)
    out = []
    for i in range(n):
        hand = cards[13 * i: 13 * i + 13]
        if legal is not None and rng.random() >= foul_rate:
            head, middle, tail = suggest_arrangement(hand, legal)
        else:
            head, middle, tail = hand[:3], hand[3:8], hand[8:]
        out.append({"name": f"P{i + 1}", "head": format_cards(head), "middle": format_cards(middle),
                    "tail": format_cards(tail)})
    return out
