"""理牌: the best legal arrangements of 13 cards under a `RuleSet`, by expected score.

Search (`scoring.splits`): every head/middle/tail split of the 13 cards is valued in bulk.
Score (`scoring.expectation`): expected points per opponent against opponents who arrange with this
same solver (the model of `scoring.winprob`: a sample of self-play at its fixed point, one per
preset, built by `scoring.selfplay`), re-weighted to the cards this hand leaves for them (holding
three aces, the opponents rarely have a pair of aces): row points and royalties from each row's
win and loss chances, the scoop (and the home run at 3+ players) from the sampled opponents' whole
layouts. A special hand the rules let this hand declare is a candidate worth its points.

Limits, on purpose: the modelled opponent never fouls or declares a special and plays without
jokers; the re-weighting is by rank (suits, so flushes, keep their full-deck odds); ties use no
tie-breaks; banker mode and caps are not modelled. Against much weaker or differently-minded
opponents (e.g. "strongest tail first" players) the ranking is not tuned to them.
Every arrangement returned is checked legal by the rules engine (`scoring.validity`).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from scoring import expectation, fasteval, winprob
from scoring.cards import Card, format_cards, parse_cards, sort_cards
from scoring.categories import ROWS, Special
from scoring.errors import ScoringError, TableError
from scoring.hands import HandValue, evaluate
from scoring.layout import Arrangement as _Rows
from scoring.rules import PRESETS, RuleSet, preset
from scoring.specials import best_special
from scoring.splits import Scored as _Scored
from scoring.splits import Split, hand_codes, score_splits, split_values
from scoring.splits import index as _index
from scoring.splits import positions as _positions
from scoring.validity import out_of_order


@dataclass(frozen=True)
class Arrangement(_Rows):
    """One arrangement with what the model expects of it (points per opponent).

    `special`: the special hand declared (then rows are only how the cards are laid out);
    `win`/`tie`/`lose`: per row probabilities against a random opponent (empty for a special)."""

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
            out["special"] = self.special.value
        else:
            out["rows"] = {
                row: {"hand": v.describe(), "win": round(w, 4), "tie": round(t, 4), "lose": round(ls, 4)}
                for row, v, w, t, ls in zip(ROWS, self.values, self.win, self.tie, self.lose, strict=True)
            }
        return out

    def describe(self) -> str:
        rows = "  |  ".join(format_cards(getattr(self, r)) for r in ROWS)
        if self.special is not None:
            return f"{self.expected:+7.2f}  declare {self.special.zh} {self.special.value}  ({rows})"
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
                        legal_pick: int | None) -> list[tuple[Special, int, Split]]:
    """The best special this hand may declare, with a layout that makes it (三同花 / 三顺子 depend on
    the layout, so a split that shows it is searched for)."""
    if not rules.specials:
        return []
    found: list[tuple[Special, int, Split]] = []
    ix = _index()
    # a layout for the card-set specials: any split will do; prefer the best legal one
    k0 = legal_pick if legal_pick is not None else 0
    layouts = [k0]
    wanted = {sp for sp, _ in rules.specials}
    tables = fasteval.tables_for(rules)
    if wanted & {Special.THREE_FLUSHES, Special.THREE_STRAIGHTS}:
        c = codes.astype(np.intp)
        suit5 = np.bitwise_and.reduce(fasteval.CODE_SUIT[c[ix.c5]], axis=1) != 0
        suit3 = np.bitwise_and.reduce(fasteval.CODE_SUIT[c[ix.c3]], axis=1) != 0
        if Special.THREE_FLUSHES in wanted:
            ok = suit3[ix.head] & suit5[ix.a] & suit5[ix.b]
            if ok.any():
                layouts.append(int(np.argmax(np.where(ok, s.legal, -1))))
        if Special.THREE_STRAIGHTS in wanted:
            cat5 = tables.category[tables.eval5(c[ix.c5])]
            straight5 = (cat5 == fasteval.STRAIGHT) | (cat5 == fasteval.STRAIGHT_FLUSH)
            r3 = np.sort(c[ix.c3] >> 2, axis=1)
            distinct = (r3[:, 0] != r3[:, 1]) & (r3[:, 1] != r3[:, 2])
            a23 = (r3[:, 0] == 0) & (r3[:, 1] == 1) & (r3[:, 2] == 12)  # A-2-3 counts
            consec = distinct & ((r3[:, 2] - r3[:, 0] == 2) | a23)
            ok = consec[ix.head] & straight5[ix.a] & straight5[ix.b]
            if ok.any():
                layouts.append(int(np.argmax(np.where(ok, s.legal, -1))))
    seen: set[Special] = set()
    for k in layouts:
        split = _positions(k, s)
        rows = {row: [hand[i] for i in pos.tolist()] for row, pos in zip(ROWS, split, strict=True)}
        values = {row: evaluate(cards, rules) for row, cards in rows.items()}
        best = best_special(rows, values, rules)
        if best is not None and best[0] not in seen:
            seen.add(best[0])
            found.append((best[0], best[1], split))
    return found


def arrange(cards: Sequence[Card | str] | str, rules: RuleSet | str = "taiwan", top: int = 3,
            opponents: int = 3, specials: bool = True) -> list[Arrangement]:
    """The `top` best legal arrangements of 13 cards, highest expected points per opponent first.

    Distinct row values only (two layouts that differ in an equal kicker's suit are one answer).
    A declarable special hand is a candidate too (`specials=False` leaves it out). `opponents`:
    how many others sit at the table (only the home-run terms use it). See the module docstring
    for the model. Raises `TableError` when there are not 13 cards or no legal layout."""
    rules = _rules(rules)
    hand = _hand(cards)
    codes = hand_codes(hand, rules)
    model = winprob.model_given(rules, codes)
    s = score_splits(codes, fasteval.tables_for(rules), rules.strict_order)
    if not s.legal.any():
        raise TableError("these 13 cards have no legal arrangement under these rules")
    ranked, score = expectation.ranked(s, model, rules, opponents, count=max(expectation.FINALISTS, top + 2))
    out: list[Arrangement] = []
    seen: set[int] = set()
    for k, key, e in zip(ranked[0].tolist(), s.keys(ranked)[0].tolist(), score[0].tolist(), strict=True):
        if key in seen or not s.legal[0, k]:
            continue
        seen.add(key)
        arr = _make(hand, _positions(k, s), rules, float(e), model)
        if out_of_order(dict(zip(ROWS, arr.values, strict=True)), rules):
            continue  # the rules engine has the last word on legality
        out.append(arr)
        if len(out) >= top:
            break
    if specials:
        best_k = int(ranked[0, 0])
        for sp, pts, split in _special_candidates(hand, rules, s, codes, best_k):
            out.append(_make(hand, split, rules, float(pts), model, special=sp))
        out.sort(key=lambda a: -a.expected)
        out = out[:top]
    return out


def greedy(cards: Sequence[Card | str] | str, rules: RuleSet | str = "taiwan") -> Arrangement:
    """The baseline: strongest tail, then the strongest middle of the rest, then the head (legal)."""
    rules = _rules(rules)
    hand = _hand(cards)
    s = score_splits(hand_codes(hand, rules), fasteval.tables_for(rules), rules.strict_order)
    if not s.legal.any():
        raise TableError("these 13 cards have no legal arrangement under these rules")
    split = _positions(int(expectation.best_splits(s, None, rules)[0]), s)
    model = winprob.model_given(rules, hand_codes(hand, rules))
    return _make(hand, split, rules, expected_of(hand, split, rules), model)


def expected_of(hand: Sequence[Card], split: Split, rules: RuleSet, opponents: int = 3) -> float:
    """The model's expected points per opponent of one given split (the exact score)."""
    codes = hand_codes(hand, rules)
    v = split_values(codes, split, fasteval.tables_for(rules))
    return float(expectation.exact_expected(v[None, None, :], winprob.model_given(rules, codes), rules,
                                            opponents)[0, 0])


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


def _cmd_arrange(args: argparse.Namespace) -> int:
    try:
        rules = preset(args.rules)
        result = arrange(args.cards, rules, top=args.top, opponents=args.opponents)
    except ScoringError as e:
        return _fail(e, args.json)
    if args.json:
        print(json.dumps({"rules": rules.name, "arrangements": [a.to_json() for a in result]},
                         ensure_ascii=False, indent=2))
    else:
        print(f"rules {rules.name}: expected points per opponent ({args.opponents} opponents)")
        for i, a in enumerate(result, 1):
            print(f"{i}. {a.describe()}")
    return 0


def _fail(e: ScoringError, as_json: bool) -> int:
    if as_json:
        print(json.dumps({"error": "invalid", "message": e.message}, ensure_ascii=False))
    else:
        print(f"error: {e.message}", file=sys.stderr)
    return 2


def _cmd_check(args: argparse.Namespace) -> int:
    try:
        rules = preset(args.rules)
        texts = args.rows[0].split("|") if len(args.rows) == 1 else args.rows
        if len(texts) != 3:
            raise TableError('give three rows: "HEAD" "MIDDLE" "TAIL", or "HEAD | MIDDLE | TAIL"')
        rows = [parse_cards(x, row=r) for x, r in zip(texts, ROWS, strict=True)]
        for r, cards in zip(ROWS, rows, strict=True):
            need = 3 if r == "head" else 5
            if len(cards) != need:
                raise TableError(f"the {r} row has {len(cards)} cards, it needs {need}", row=r)
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
        print(json.dumps(out, ensure_ascii=False, indent=2))
    else:
        rows_text = ", ".join(f"{r}: {d}" for r, d in out["rows"].items())
        print(("legal" if not fouls else f"相公 (foul): {'; '.join(fouls)}") + f"  [{rows_text}]")
        if not fouls:
            print(f"expected points per opponent: {out['expected']:+.2f}")
        if best:
            print(f"best legal: {best[0].describe()}")
    return 0 if not fouls else 1


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
