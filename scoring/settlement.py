"""Settlement: who pays whom, pair by pair, with every point explained.

Order of RULES.md's "Settlement" section, per pair of players:

1. a special hand (报到) on either side: only special points change hands;
2. 相公 under `lose_all` / `penalty` (under `reject` the table never gets here);
3. rows, each scored by `row_points` or the winner's `row_values`;
4. scoop 打枪 (all three rows, no tie) multiplies the row points by `scoop_factor`;
5. home run 全垒打 (a scoop of every other player, 3+ players) multiplies again;
6. royalties 怪物, added after and never multiplied;
7. banker mode: only banker pairs, ties to the banker, no scoop or home run, `banker_cap`.

Each step leaves an `Item` (who, what, how many points) so a player can see why; an item's points
always move from its loser to its winner, so a pair's net is the signed sum of its items.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from scoring.categories import ROWS
from scoring.hands import HandValue, compare, evaluate
from scoring.layout import Arrangement
from scoring.rules import Foul, RoyaltyMode, RuleSet
from scoring.special_hands import Special
from scoring.specials import best_special, compare_specials
from scoring.suggest import suggest_arrangement
from scoring.table import Hand, Table, parse_table
from scoring.validity import out_of_order


@dataclass(frozen=True)
class Item:
    """One line of a pair's explanation: `points` move from `loser` to `winner` (0 for a tie)."""

    kind: str                  # "row" | "scoop" | "home_run" | "royalty" | "special" | "foul" | "cap"
    winner: str | None
    loser: str | None
    points: int
    row: str | None = None
    detail: str = ""
    hands: dict[str, str] | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        if self.row is not None:
            out["row"] = self.row
        out["winner"] = self.winner
        out["points"] = self.points
        if self.hands is not None:
            out["hands"] = self.hands
        if self.detail:
            out["detail"] = self.detail
        return out


@dataclass
class PairResult:
    """The settlement between two players; `net[a] == -net[b]`."""

    players: tuple[str, str]
    items: list[Item] = field(default_factory=list)
    net: dict[str, int] = field(default_factory=dict)
    scooper: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "players": list(self.players),
            "net": dict(self.net),
            "items": [i.to_json() for i in self.items],
        }


@dataclass
class Settlement:
    """The result for one table.  When `rejected` (相公 under `foul: reject`) there are no totals:
    `fouls` says who and which rows, `suggestions` a legal arrangement of the same cards."""

    rules: RuleSet
    totals: dict[str, int]
    fouls: dict[str, list[str]]
    pairs: list[PairResult]
    specials: dict[str, str] = field(default_factory=dict)
    rejected: bool = False
    suggestions: dict[str, Arrangement] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.rejected

    def to_json(self) -> dict[str, Any]:
        """The CLI's object: totals, fouls, pairs; or the 相公 rejection."""
        if self.rejected:
            return {
                "error": "foul",
                "fouls": {name: list(rows) for name, rows in self.fouls.items()},
                "suggestions": {name: a.to_json() for name, a in self.suggestions.items()},
            }
        return {
            "totals": dict(self.totals),
            "fouls": list(self.fouls),
            "pairs": [p.to_json() for p in self.pairs],
        }

    def to_json_text(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False, indent=indent)


# ---------------------------------------------------------------- per-player facts


@dataclass
class _Seat:
    hand: Hand
    values: dict[str, HandValue]
    special: Special | None
    fouls: list[str]

    @property
    def name(self) -> str:
        return self.hand.name

    @property
    def fouled(self) -> bool:
        return bool(self.fouls)


def _seat(hand: Hand, rules: RuleSet) -> _Seat:
    values = {row: evaluate(cards, rules) for row, cards in hand.rows.items()}
    special = best_special(hand.rows, values, rules) if hand.declare is not False else None
    fouls = [] if special else out_of_order(values, rules)
    return _Seat(hand, values, special, fouls)


# ---------------------------------------------------------------- one pair, before home runs


@dataclass
class _Draft:
    a: _Seat
    b: _Seat
    rows: list[Item] = field(default_factory=list)
    extras: list[Item] = field(default_factory=list)   # royalties, specials, fouls: never multiplied
    scooper: str | None = None

    def row_total(self, name: str) -> int:
        """Row points won by `name` minus those lost."""
        return sum(i.points if i.winner == name else -i.points for i in self.rows if i.winner)


def _special_pair(d: _Draft, rules: RuleSet) -> None:
    """Only special points change hands: the stronger special (by value or by the table's order,
    `special_rank`) wins its own value; a special beats a hand without one."""
    a, b = d.a, d.b

    def item(winner: _Seat, loser: _Seat, tie_note: str = "") -> Item:
        sp = winner.special
        assert sp is not None
        text = f"{winner.name}: {sp}"
        if loser.special:
            text += f" beats {loser.name}'s {loser.special}"
        return Item("special", winner.name, loser.name, sp.points, detail=text + tie_note)

    if a.special and b.special:
        c = compare_specials(a.special, b.special, rules)
    else:
        c = 1 if a.special else -1
    if c > 0:
        d.extras.append(item(a, b))
    elif c < 0:
        d.extras.append(item(b, a))
    elif rules.banker in (a.name, b.name):
        player, banker = (b, a) if a.name == rules.banker else (a, b)
        d.extras.append(item(player, banker, "; equal specials go to the player in banker mode"))
    else:
        d.extras.append(Item("special", None, None, 0,
                             detail=f"both special, equal rank ({a.special} / {b.special}): no score"))


def _row_item(row: str, winner: _Seat | None, loser: _Seat | None, a: _Seat, b: _Seat, rules: RuleSet,
              detail: str = "") -> Item:
    hands = {a.name: a.values[row].describe(), b.name: b.values[row].describe()}
    if winner is None or loser is None:
        return Item("row", None, None, 0, row=row, hands=hands, detail=detail or "tie")
    points = rules.row_win_points(row, winner.values[row].category)
    return Item("row", winner.name, loser.name, points, row=row, hands=hands, detail=detail)


def _royalties(d: _Draft, rules: RuleSet, seat: _Seat, other: _Seat, won_rows: set[str]) -> None:
    """`seat`'s royalties against `other`: `on_win` for rows it beat, `always` regardless."""
    if seat.fouled:
        return  # a fouled hand's own royalties are void
    for row in ROWS:
        cat = seat.values[row].category
        for r in rules.royalties:
            if not r.applies_to(row, cat):
                continue
            if r.mode == RoyaltyMode.ALWAYS or row in won_rows:
                how = "every opponent pays" if r.mode == RoyaltyMode.ALWAYS else "won against it"
                d.extras.append(Item("royalty", seat.name, other.name, r.points, row=row,
                                     detail=f"{seat.name}'s {row} {cat.label} {cat.zh}: +{r.points} ({how})"))


def _row_pair(d: _Draft, rules: RuleSet) -> None:
    a, b = d.a, d.b
    banker_mode = rules.banker is not None
    if a.fouled and b.fouled:
        for row in ROWS:
            d.rows.append(_row_item(row, None, None, a, b, rules, "both fouled: every row ties"))
        return
    if (a.fouled or b.fouled) and rules.foul == Foul.PENALTY:
        clean, fouled = (b, a) if a.fouled else (a, b)
        d.extras.append(Item("foul", clean.name, fouled.name, rules.foul_penalty,
                             detail=f"{fouled.name} fouled (相公: {', '.join(fouled.fouls)}): "
                                    f"pays {rules.foul_penalty}, no rows compared"))
        _royalties(d, rules, clean, fouled, set())
        return
    won: dict[str, set[str]] = {a.name: set(), b.name: set()}
    for row in ROWS:
        if a.fouled or b.fouled:  # lose_all
            clean, fouled = (b, a) if a.fouled else (a, b)
            winner, loser = clean, fouled
            note = f"{fouled.name} fouled (相公: {', '.join(fouled.fouls)}): loses every row"
        else:
            c = compare(a.values[row], b.values[row])
            note = ""
            if c == 0 and banker_mode:
                c = 1 if a.name == rules.banker else -1
                note = "equal rows go to the banker"
            winner, loser = (a, b) if c > 0 else (b, a) if c < 0 else (None, None)
        d.rows.append(_row_item(row, winner, loser, a, b, rules, note))
        if winner is not None:
            won[winner.name].add(row)
    for seat, other in ((a, b), (b, a)):
        if len(won[seat.name]) == 3 and not banker_mode:
            d.scooper = seat.name
        _royalties(d, rules, seat, other, won[seat.name])


def _draft(a: _Seat, b: _Seat, rules: RuleSet) -> _Draft:
    d = _Draft(a, b)
    if a.special or b.special:
        _special_pair(d, rules)
    else:
        _row_pair(d, rules)
    return d


# ---------------------------------------------------------------- the table


def _pairs_to_settle(seats: list[_Seat], rules: RuleSet) -> list[tuple[_Seat, _Seat]]:
    if rules.banker is not None:
        banker = next(s for s in seats if s.name == rules.banker)
        return [(banker, s) for s in seats if s is not banker]
    return [(seats[i], seats[j]) for i in range(len(seats)) for j in range(i + 1, len(seats))]


def _home_runs(drafts: list[_Draft], seats: list[_Seat], rules: RuleSet) -> set[str]:
    """Players who scooped every other player (never in banker mode or below the player minimum)."""
    if rules.banker is not None or len(seats) < max(rules.home_run_min_players, 2):
        return set()
    out = set()
    for s in seats:
        mine = [d for d in drafts if s.name in (d.a.name, d.b.name)]
        if mine and all(d.scooper == s.name for d in mine):
            out.add(s.name)
    return out


def _finish(d: _Draft, rules: RuleSet, home_runs: set[str]) -> PairResult:
    a, b = d.a.name, d.b.name
    items = list(d.rows)
    rows_a = d.row_total(a)
    multiplied = rows_a
    if d.scooper is not None and rules.scoop_factor != 1:
        loser = b if d.scooper == a else a
        extra = abs(multiplied) * (rules.scoop_factor - 1)
        items.append(Item("scoop", d.scooper, loser, extra,
                          detail=f"{d.scooper} won all three rows (打枪): row points x{rules.scoop_factor}"))
        multiplied *= rules.scoop_factor
    if d.scooper is not None and d.scooper in home_runs and rules.home_run_factor != 1:
        loser = b if d.scooper == a else a
        extra = abs(multiplied) * (rules.home_run_factor - 1)
        items.append(Item("home_run", d.scooper, loser, extra,
                          detail=f"{d.scooper} scooped every player (全垒打): x{rules.home_run_factor}"))
        multiplied *= rules.home_run_factor
    items.extend(d.extras)
    net_a = multiplied + sum(i.points if i.winner == a else -i.points for i in d.extras if i.winner)
    cap = rules.banker_cap
    if rules.banker is not None and cap is not None and abs(net_a) > cap:
        over = abs(net_a) - cap
        # the cap gives points back from the pair's winner to its loser
        winner, loser = (b, a) if net_a > 0 else (a, b)
        items.append(Item("cap", winner, loser, over, detail=f"banker cap: at most {cap} per pair"))
        net_a = cap if net_a > 0 else -cap
    return PairResult((a, b), items, {a: net_a, b: -net_a}, d.scooper)


def settle(table: Mapping[str, Any] | Table | str) -> Settlement:
    """Settle one table (the JSON contract's object, its JSON text, or a parsed `Table`).

    Raises `ScoringError` for bad input; returns a rejected `Settlement` for 相公 under `reject`."""
    t = parse_table(table)
    rules = t.rules
    seats = [_seat(h, rules) for h in t.hands]
    fouls = {s.name: s.fouls for s in seats if s.fouled}
    specials = {s.name: s.special.key for s in seats if s.special}
    if fouls and rules.foul == Foul.REJECT:
        suggestions = {}
        for s in seats:
            if s.fouled:
                head, middle, tail = suggest_arrangement(s.hand.cards, rules)
                suggestions[s.name] = Arrangement(tuple(head), tuple(middle), tuple(tail))
        return Settlement(rules, {}, fouls, [], specials, rejected=True, suggestions=suggestions)
    drafts = [_draft(a, b, rules) for a, b in _pairs_to_settle(seats, rules)]
    home_runs = _home_runs(drafts, seats, rules)
    pairs = [_finish(d, rules, home_runs) for d in drafts]
    totals = {s.name: 0 for s in seats}
    for p in pairs:
        for name, pts in p.net.items():
            totals[name] += pts
    return Settlement(rules, totals, fouls, pairs, specials)
