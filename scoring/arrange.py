"""理牌: the best legal arrangements of 13 cards under a `RuleSet`, by expected score.

Search (`scoring.splits`): every head/middle/tail split of the 13 cards is valued in bulk.
Score (`scoring.expectation`): expected points per opponent against opponents who arrange with this
same solver (the model of `scoring.winprob`: a sample of self-play near its fixed point, one per
preset, built by `scoring.selfplay`), re-weighted to the cards this hand leaves for them (holding
three aces, the opponents rarely have a pair of aces): row points and royalties from each row's
win and loss chances, the scoop (and the home run at 3+ players) from the sampled opponents' whole
layouts. A special hand the rules let this hand declare is a candidate worth its points.

The answers are ranked with that sample; the expected score and row chances printed with them
are valued on a second one (`winprob.value_model_given`): the solver's own layouts of other
hands, so neither the sample's distance from the fixed point nor the choice among near-equal
candidates on the same opponents (which favours the ones the sample happens to overrate) biases
the figure, and weighed by the suits the hand leaves as well as the ranks. So the order is the
solver's and the figure is what its opponents' play gives; two near-equal answers can show
figures a little out of order.

Limits, on purpose: the modelled opponent never fouls or declares a special and plays without
jokers; the choice's re-weighting is by rank only; ties use no tie-breaks; banker mode and caps
are not modelled. Against much weaker or differently-minded opponents (e.g. "strongest tail
first" players) the ranking is not tuned to them.
Every arrangement returned is checked legal by the rules engine (`scoring.validity`).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from scoring import expectation, fasteval, winprob
from scoring.cards import Card, format_cards, parse_cards, sort_cards
from scoring.categories import ROWS
from scoring.errors import ScoringError, TableError
from scoring.hands import HandValue, evaluate
from scoring.layout import Arrangement as _Rows
from scoring.options import preset
from scoring.output import EXIT_FOUL, EXIT_INVALID, EXIT_OK, emit_json, invalid, shorten, write
from scoring.rules import PRESETS, RuleSet
from scoring.special_hands import Special, SpecialTest
from scoring.specials import best_special, special_layout
from scoring.splits import Scored as _Scored
from scoring.splits import Split, hand_codes, score_splits, split_values
from scoring.splits import index as _index
from scoring.splits import positions as _positions
from scoring.validity import check_hand, out_of_order


@dataclass(frozen=True)
class Arrangement(_Rows):
    """One arrangement with what the model expects of it (points per opponent).

    `special`: the special hand declared (then rows are only how the cards are laid out);
    `win`/`tie`/`lose`: per row probabilities against an opponent dealt from the cards left
    (empty for a special)."""

    expected: float = 0.0
    special: Special | None = None
    win: tuple[float, ...] = ()
    tie: tuple[float, ...] = ()
    lose: tuple[float, ...] = ()
    values: tuple[HandValue, ...] = field(default=(), compare=False, repr=False)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = dict(super().to_json())
        out["expected"] = round(self.expected, 4)
        out["declare"] = self.special is not None
        if self.special is not None:
            out["special"] = self.special.key
            out["special_name"] = f"{self.special.zh} {self.special.en}"
        else:
            out["rows"] = {
                row: {"hand": v.describe(), "win": round(w, 4), "tie": round(t, 4), "lose": round(ls, 4)}
                for row, v, w, t, ls in zip(ROWS, self.values, self.win, self.tie, self.lose, strict=True)
            }
        return out

    def describe(self) -> str:
        rows = "  |  ".join(format_cards(getattr(self, r)) for r in ROWS)
        if self.special is not None:
            return f"{self.expected:+7.2f}  declare {self.special}  ({rows})"
        probs = " ".join(f"{r[0]}:{w:.0%}" for r, w in zip(ROWS, self.win, strict=True))
        return f"{self.expected:+7.2f}  {rows}   (win {probs})"


# ------------------------------------------------------------------ public API


def _rules(rules: RuleSet | str) -> RuleSet:
    return preset(rules) if isinstance(rules, str) else rules


def _hand(cards: Sequence[Card | str] | str) -> list[Card]:
    hand = parse_cards(cards)
    if len(hand) != 13:
        raise TableError(f"an arrangement needs 13 cards, not {len(hand)}")
    return hand


def _make(hand: Sequence[Card], split: Split, rules: RuleSet, expected: float,
          model: winprob.RowModel | None, special: Special | None = None) -> Arrangement:
    rows = [tuple(sort_cards(hand[i] for i in pos.tolist())) for pos in split]
    values = tuple(evaluate(r, rules) for r in rows)
    if special is not None or model is None:
        return Arrangement(*rows, expected=expected, special=special, values=values)
    tables = fasteval.tables_for(rules)
    v = split_values(hand_codes(hand, rules), split, tables)
    win = tuple(np.asarray(model.win[r])[..., v[r]].item() for r in range(3))
    lose = tuple(np.asarray(model.lose[r])[..., v[r]].item() for r in range(3))
    tie = tuple(max(0.0, 1.0 - w - ls) for w, ls in zip(win, lose, strict=True))
    return Arrangement(*rows, expected=expected, win=win, tie=tie, lose=lose, values=values)


def _special_candidates(hand: Sequence[Card], rules: RuleSet, s: _Scored, codes: np.ndarray,
                        legal_pick: int | None) -> list[tuple[Special, Split]]:
    """The best special this hand may declare, with a layout that shows it. Seed 004's 三同花 /
    三顺子 depend on the layout, so a split that makes them is searched for; a special judged on
    "some split" (三同花顺, the apps' 三顺子 / 三同花) is laid out as that split; any layout shows
    the others (the best legal one is preferred)."""
    if not rules.specials:
        return []
    ix = _index()
    layouts = [legal_pick if legal_pick is not None else 0]
    tests = {sp.test for sp in rules.specials}
    tables = fasteval.tables_for(rules)
    if tests & {SpecialTest.ROWS_FLUSHES, SpecialTest.ROWS_STRAIGHTS}:
        c = codes.astype(np.intp)
        suit5 = np.bitwise_and.reduce(fasteval.CODE_SUIT[c[ix.c5]], axis=1) != 0
        suit3 = np.bitwise_and.reduce(fasteval.CODE_SUIT[c[ix.c3]], axis=1) != 0
        if SpecialTest.ROWS_FLUSHES in tests:
            ok = suit3[ix.head] & suit5[ix.a] & suit5[ix.b]
            if ok.any():
                layouts.append(int(np.argmax(np.where(ok, s.legal, -1))))
        if SpecialTest.ROWS_STRAIGHTS in tests:
            cat5 = tables.category[tables.eval5(c[ix.c5])]
            straight5 = (cat5 == fasteval.STRAIGHT) | (cat5 == fasteval.STRAIGHT_FLUSH)
            r3 = np.sort(c[ix.c3] >> 2, axis=1)
            distinct = (r3[:, 0] != r3[:, 1]) & (r3[:, 1] != r3[:, 2])
            a23 = (r3[:, 0] == 0) & (r3[:, 1] == 1) & (r3[:, 2] == 12)  # A-2-3 counts
            consec = distinct & ((r3[:, 2] - r3[:, 0] == 2) | a23)
            ok = consec[ix.head] & straight5[ix.a] & straight5[ix.b]
            if ok.any():
                layouts.append(int(np.argmax(np.where(ok, s.legal, -1))))
    found: list[tuple[Special, Split]] = []
    for k in layouts:
        split = _positions(k, s)
        rows = {row: [hand[i] for i in pos.tolist()] for row, pos in zip(ROWS, split, strict=True)}
        values = {row: evaluate(cards, rules) for row, cards in rows.items()}
        best = best_special(rows, values, rules)
        if best is not None and all(best.key != sp.key for sp, _ in found):
            shown = special_layout(hand, best, rules)
            found.append((best, split if shown is None else _split_of(hand, shown, rules)))
    return found


def _split_of(hand: Sequence[Card], rows: Sequence[Sequence[Card]], rules: RuleSet) -> Split:
    """Positions of laid-out rows in `hand`, the weaker 5-card row in the middle."""
    left = list(range(len(hand)))
    out = []
    for row in rows:
        pos = []
        for card in row:
            i = next(i for i in left if hand[i] == card)
            left.remove(i)
            pos.append(i)
        out.append(np.array(pos, dtype=np.intp))
    head, middle, tail = out
    if evaluate([hand[i] for i in middle], rules) > evaluate([hand[i] for i in tail], rules):
        middle, tail = tail, middle
    return head, middle, tail


def arrange(cards: Sequence[Card | str] | str, rules: RuleSet | str = "taiwan", top: int = 3,
            opponents: int = 3, specials: bool = True) -> list[Arrangement]:
    """The `top` best legal arrangements of 13 cards, the solver's best first, each with its
    expected points per opponent (valued on the solver's own play: see the module docstring).

    Distinct row values only (two layouts that differ in an equal kicker's suit are one answer).
    A declarable special hand is a candidate too, and with `top` > 1 always among the answers
    (last where rows are expected to pay more); `specials=False` leaves it out. `opponents`:
    how many others sit at the table (only the home-run terms use it). See the module docstring
    for the model. Raises `TableError` when there are not 13 cards or no legal layout."""
    rules = _rules(rules)
    hand = _hand(cards)
    codes = hand_codes(hand, rules)
    model = winprob.model_given(rules, codes)
    s = score_splits(codes, fasteval.tables_for(rules), rules.strict_order)
    if not s.legal.any():
        raise TableError("these 13 cards have no legal arrangement under these rules")
    ranked, _ = expectation.ranked(s, model, rules, opponents, count=max(expectation.FINALISTS, top + 2))
    value = winprob.value_model_given(rules, codes)
    picked: list[tuple[Split, tuple[HandValue, ...]]] = []
    seen: set[int] = set()
    for k, key in zip(ranked[0].tolist(), s.keys(ranked)[0].tolist(), strict=True):
        if key in seen or not s.legal[0, k]:
            continue
        seen.add(key)
        split = _positions(k, s)
        values = tuple(evaluate([hand[i] for i in pos.tolist()], rules) for pos in split)
        if out_of_order(dict(zip(ROWS, values, strict=True)), rules):
            continue  # the rules engine has the last word on legality
        picked.append((split, values))
        if len(picked) >= top:
            break
    worth = _expected(hand, [split for split, _ in picked], rules, value, opponents)
    out = [_make(hand, split, rules, e, value) for (split, _), e in zip(picked, worth, strict=True)]
    if specials:
        best_k = int(ranked[0, 0]) if ranked.size else None
        offered = None
        for sp, split in _special_candidates(hand, rules, s, codes, best_k):
            arr = _make(hand, split, rules, float(sp.points), value, special=sp)
            at = next((i for i, a in enumerate(out) if a.expected < arr.expected), len(out))
            out.insert(at, arr)  # the rows keep the solver's order
            if offered is None or arr.expected > offered.expected:
                offered = arr
        out = out[:top]
        if top > 1 and offered is not None and all(a is not offered for a in out):
            out[-1] = offered  # a special is always offered (with its value), even where rows pay more
    return out


def _expected(hand: Sequence[Card], splits: Sequence[Split], rules: RuleSet, model: winprob.RowModel,
              opponents: int) -> list[float]:
    """Expected points per opponent of each split under `model` (one exact scoring of them all)."""
    if not splits:
        return []
    codes = hand_codes(hand, rules)
    tables = fasteval.tables_for(rules)
    v = np.stack([split_values(codes, split, tables) for split in splits])
    return expectation.exact_expected(v[None], model, rules, opponents)[0].tolist()


def greedy(cards: Sequence[Card | str] | str, rules: RuleSet | str = "taiwan") -> Arrangement:
    """The baseline: strongest tail, then the strongest middle of the rest, then the head (legal)."""
    rules = _rules(rules)
    hand = _hand(cards)
    s = score_splits(hand_codes(hand, rules), fasteval.tables_for(rules), rules.strict_order)
    if not s.legal.any():
        raise TableError("these 13 cards have no legal arrangement under these rules")
    split = _positions(int(expectation.best_splits(s, None, rules)[0]), s)
    model = winprob.value_model_given(rules, hand_codes(hand, rules))
    return _make(hand, split, rules, expected_of(hand, split, rules), model)


def expected_of(hand: Sequence[Card], split: Split, rules: RuleSet, opponents: int = 3) -> float:
    """The expected points per opponent of one given split, valued as `arrange` values its answers."""
    model = winprob.value_model_given(rules, hand_codes(hand, rules))
    return _expected(hand, [split], rules, model, opponents)[0]


def expected_score(head: Sequence[Card | str] | str, middle: Sequence[Card | str] | str,
                   tail: Sequence[Card | str] | str, rules: RuleSet | str = "taiwan",
                   opponents: int = 3) -> float:
    """The model's expected points per opponent of a laid-out arrangement (legal or not)."""
    rules = _rules(rules)
    rows = [parse_cards(x) for x in (head, middle, tail)]
    hand = [c for r in rows for c in r]
    split = (np.arange(0, 3), np.arange(3, 8), np.arange(8, 13))
    return expected_of(hand, split, rules, opponents)


# ------------------------------------------------------------------ CLI: arrange, check


MAX_TOP = 50
"""The most arrangements `arrange --top` lists: more than anyone reads, and each costs a re-score."""


def _cmd_arrange(args: argparse.Namespace) -> int:
    try:
        rules = preset(args.rules)
        _check_counts(args.top, args.opponents, rules)
        hand = _hand(args.cards)
        check_hand(hand, rules)
        result = arrange(hand, rules, top=args.top, opponents=args.opponents)
    except ScoringError as e:
        return _fail(e, args.json)
    if args.json:
        emit_json({"rules": rules.name, "arrangements": [a.to_json() for a in result]})
    else:
        lines = [f"rules {rules.name}: expected points per opponent ({args.opponents} opponents)"]
        lines += [f"{i}. {a.describe()}" for i, a in enumerate(result, 1)]
        write("\n".join(lines))
    return EXIT_OK


def _check_counts(top: int, opponents: int, rules: RuleSet) -> None:
    if not 1 <= top <= MAX_TOP:
        raise TableError(f"--top must be from 1 to {MAX_TOP}, not {top}")
    if not 1 <= opponents <= rules.max_players - 1:
        raise TableError(f"--opponents must be from 1 to {rules.max_players - 1} "
                         f"(a table has 2 to {rules.max_players} players), not {opponents}")


def _fail(e: ScoringError, as_json: bool) -> int:
    if as_json:
        emit_json(invalid(e.message), compact=True)
    else:
        write(f"error: {shorten(e.message)}", sys.stderr)
    return EXIT_INVALID


def _read_rows(texts: Sequence[str]) -> list[list[Card]]:
    """The three rows of `check`, each of its size; a `TableError` naming the row otherwise."""
    if len(texts) == 1:
        texts = texts[0].split("|")
    if len(texts) != 3:
        raise TableError('give three rows: "HEAD" "MIDDLE" "TAIL", or "HEAD | MIDDLE | TAIL"')
    rows = [parse_cards(x, row=r) for x, r in zip(texts, ROWS, strict=True)]
    for r, cards in zip(ROWS, rows, strict=True):
        need = 3 if r == "head" else 5
        if len(cards) != need:
            raise TableError(f"the {r} row has {len(cards)} cards, it needs {need}", row=r)
    return rows


def _cmd_check(args: argparse.Namespace) -> int:
    try:
        rules = preset(args.rules)
        rows = _read_rows(args.rows)
        check_hand(dict(zip(ROWS, rows, strict=True)), rules)
        values = {r: evaluate(c, rules) for r, c in zip(ROWS, rows, strict=True)}
        fouls = out_of_order(values, rules)
        hand = [c for r in rows for c in r]
        best = arrange(hand, rules, top=1) if fouls or args.best else []
    except ScoringError as e:
        return _fail(e, args.json)
    out: dict[str, Any] = {"legal": not fouls, "rows": {r: v.describe() for r, v in values.items()}}
    if fouls:
        out["fouls"] = fouls
    else:
        out["expected"] = round(expected_score(*rows, rules), 4)
    if best:
        out["best"] = best[0].to_json()
    if args.json:
        emit_json(out)
    else:
        rows_text = ", ".join(f"{r}: {d}" for r, d in out["rows"].items())
        lines = [("legal" if not fouls else f"相公 (foul): {'; '.join(fouls)}") + f"  [{rows_text}]"]
        if not fouls:
            lines.append(f"expected points per opponent: {out['expected']:+.2f}")
        if best:
            lines.append(f"best legal: {best[0].describe()}")
        write("\n".join(lines))
    return EXIT_OK if not fouls else EXIT_FOUL


def register_cli(sub: argparse._SubParsersAction) -> None:
    """`arrange` and `check` subcommands for `python -m scoring` (registered by `scoring.cli`)."""
    p = sub.add_parser("arrange", help="best arrangements of 13 cards by expected points",
                       description="The best legal arrangements of 13 cards under a preset.")
    p.add_argument("cards", help='13 cards, e.g. "As Kd Qh ..." (quote them)')
    p.add_argument("--rules", default="taiwan", choices=sorted(PRESETS))
    p.add_argument("--top", type=int, default=3)
    p.add_argument("--opponents", type=int, default=3, help="opponents at the table (home-run odds)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_cmd_arrange)
    c = sub.add_parser("check", help="is an arrangement legal (相公?), and the best legal one",
                       description="Check one arrangement: legal or 相公 (which rows), "
                                   "and the best legal one.")
    c.add_argument("rows", nargs="+", metavar="ROW",
                   help='the head (3 cards), middle and tail (5 each) as three arguments, or one "h | m | t"')
    c.add_argument("--rules", default="taiwan", choices=sorted(PRESETS))
    c.add_argument("--best", action="store_true", help="also show the best arrangement when legal")
    c.add_argument("--json", action="store_true")
    c.set_defaults(func=_cmd_check)
