"""Property tests over random deals (hypothesis, derandomized): what must hold for every table."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import Foul, evaluate, parse_cards, preset, settle
from scoring.cards import sort_cards
from scoring.validity import is_legal
from tests.scoring.helpers import random_hands, table

PROPS = settings(max_examples=25, derandomize=True, deadline=None,
                 suppress_health_check=[HealthCheck.too_slow])


@dataclass
class Deal:
    table: dict[str, Any]
    seed: int


@st.composite
def deals(draw: st.DrawFn, foul: str | None = None, banker: bool | None = None) -> Deal:
    """A random table: any preset, 2-5 players (5 with the 65-card deck), sometimes jokers,
    sometimes a banker, about one hand in four cut at random (usually 相公)."""
    seed = draw(st.integers(0, 2**32 - 1))
    rules_name = draw(st.sampled_from(["luosong", "weighted", "taiwan", "shisanshui"]))
    n = draw(st.integers(2, 5))
    options: dict[str, Any] = {}
    if n == 5:
        options["deck"] = 65
    else:
        options["jokers"] = draw(st.sampled_from([0, 0, 1, 2]))
    if foul is not None:
        options["foul"] = foul
    rules = preset(rules_name, options)
    rng = random.Random(seed)
    hands = random_hands(rng, n, jokers=rules.jokers, extra_suit=rules.extra_suit, legal=rules,
                         foul_rate=0.25)
    extra: dict[str, Any] = {"options": options}
    if banker or (banker is None and draw(st.integers(0, 4)) == 0):
        extra["banker"] = hands[rng.randrange(n)]["name"]
    return Deal(table(rules_name, *hands, **extra), seed)


def signed_sum(pair) -> int:
    a = pair.players[0]
    return sum(i.points if i.winner == a else -i.points for i in pair.items if i.winner)


@PROPS
@given(deals())
def test_totals_and_every_pair_are_zero_sum(deal: Deal) -> None:
    s = settle(deal.table)
    if s.rejected:
        return
    assert sum(s.totals.values()) == 0
    for p in s.pairs:
        a, b = p.players
        assert p.net[a] == -p.net[b]
        assert signed_sum(p) == p.net[a]  # the explanation adds up to the score


@PROPS
@given(deals(), st.randoms(use_true_random=False))
def test_seat_order_does_not_change_any_total(deal: Deal, rnd: random.Random) -> None:
    s = settle(deal.table)
    shuffled = dict(deal.table, players=rnd.sample(deal.table["players"], len(deal.table["players"])))
    t = settle(shuffled)
    assert s.rejected == t.rejected
    if s.rejected:
        assert s.fouls == t.fouls
    else:
        assert s.totals == t.totals


@PROPS
@given(deals(banker=False))
def test_a_scoop_is_exactly_the_doubled_row_points(deal: Deal) -> None:
    s = settle(deal.table)
    if s.rejected:
        return
    for p in s.pairs:
        rows = [i for i in p.items if i.kind == "row"]
        row_points = sum(i.points for i in rows)
        scoop = [i for i in p.items if i.kind == "scoop"]
        if p.scooper is None:
            assert not scoop
            continue
        assert all(i.winner == p.scooper for i in rows) and len(rows) == 3
        assert [i.points for i in scoop] == [row_points]  # x2: the scoop adds the row points again
        home_run = [i for i in p.items if i.kind == "home_run"]
        assert [i.points for i in home_run] in ([], [2 * row_points])
        others = sum(i.points if i.winner == p.scooper else -i.points
                     for i in p.items if i.kind not in ("row", "scoop", "home_run") and i.winner)
        assert p.net[p.scooper] == row_points * 2 * (2 if home_run else 1) + others


@PROPS
@given(deals(foul=Foul.LOSE_ALL))
def test_lose_all_fouls_lose_every_row(deal: Deal) -> None:
    s = settle(deal.table)
    assert not s.rejected
    special = set(s.specials)
    for p in s.pairs:
        a, b = p.players
        if special & {a, b}:
            continue
        fouled = [n for n in (a, b) if n in s.fouls]
        rows = [i for i in p.items if i.kind == "row"]
        if len(fouled) == 1:
            clean = b if fouled[0] == a else a
            assert [i.winner for i in rows] == [clean] * 3
            assert all(i.winner != fouled[0] for i in p.items if i.kind != "cap")
        elif len(fouled) == 2:
            assert p.net[a] == 0 and all(i.winner is None for i in rows)


@settings(max_examples=15, derandomize=True, deadline=None)
@given(deals(foul=Foul.REJECT))
def test_rejections_suggest_a_legal_arrangement_of_the_same_cards(deal: Deal) -> None:
    s = settle(deal.table)
    if not s.rejected:
        assert not s.fouls
        return
    by_name = {p["name"]: p for p in deal.table["players"]}
    for name, arrangement in s.suggestions.items():
        given_cards = parse_cards(" ".join(by_name[name][r] for r in ("head", "middle", "tail")))
        rows = {r: getattr(arrangement, r) for r in ("head", "middle", "tail")}
        assert sort_cards(given_cards) == sort_cards([c for r in rows.values() for c in r])
        assert is_legal({r: evaluate(c, s.rules) for r, c in rows.items()}, s.rules)
