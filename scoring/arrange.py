"""理牌: the best legal arrangements of 13 cards under a `RuleSet`, by expected score.

Search: all C(13,3) x C(10,5) = 72,072 head/middle/tail splits are considered. The two 5-card rows
of a split are an unordered pair, and only "weaker one in the middle" can be legal, so that is
36,036 candidates. All 1,287 five-card subsets and 286 heads are valued in one `fasteval` call
each, then every candidate's legality and score is a handful of numpy gathers (no Python per split).

Model ("best" = highest expected score against one random opponent, per opponent; the opponent
is a simulated player who itself plays for expected score, `scoring.winprob`, one set per preset):

* rows: each row's value v gives P(win), P(lose) against an opponent's row in the same place;
  expected row points = points(v) * P(win) - E[opponent's points; opponent's row better], with
  `row_points` or the winning hand's `row_values`;
* royalties: `on_win` ones weighted by P(win) (the opponent's by P(lose)), `always` ones in full;
* scoop: (scoop_factor - 1) times the row points of winning all three rows, less the same for
  losing all three;
* home run (3+ players, `opponents` others): my scoop chance to the power of the opponents, and
  being home-run by an opponent from the simulated scoop rate;
* a special hand the rules let this hand declare is a candidate worth its points.

Two stages keep it fast: every split gets a fast score that treats the three rows as independent
(the scoop chance is the product of the three P(win)); the best 48 distinct layouts (plus the
greedy one, so the answer is never below it) are re-scored with the scoop counted against 5,000
sampled opponents' actual row triples, which keeps the rows' correlation (independence halves
the chance of being scooped).

Limits, on purpose: the opponent never fouls or declares a special and plays without jokers;
against much weaker or differently-minded opponents (e.g. "strongest tail first" players) the
ranking is not tuned to them; ties use no tie-breaks; banker mode and caps are not modelled.
Every arrangement returned is checked legal by the rules engine (`scoring.validity`).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations
from typing import Any

import numpy as np

from scoring import fasteval, winprob
from scoring.cards import Card, format_cards, parse_cards, sort_cards
from scoring.categories import ROWS
from scoring.errors import ScoringError, TableError
from scoring.hands import HandValue, evaluate
from scoring.output import EXIT_FOUL, EXIT_INVALID, EXIT_OK, emit_json, invalid, shorten, write
from scoring.rules import PRESETS, RuleSet, preset
from scoring.settlement import Arrangement as _Rows
from scoring.special_hands import Special, SpecialTest
from scoring.specials import best_special, special_layout
from scoring.validity import check_hand, out_of_order

Split = tuple[np.ndarray, np.ndarray, np.ndarray]
"""Positions (into the 13 cards) of head, middle and tail."""


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


# ------------------------------------------------------------------ the split index (built once)


@dataclass(frozen=True)
class _Index:
    c5: np.ndarray      # (1287, 5) positions
    c3: np.ndarray      # (286, 3) positions
    head: np.ndarray    # (36036,) index into c3
    a: np.ndarray       # (36036,) index into c5, the first 5-card row
    b: np.ndarray       # (36036,) index into c5, the other one (a < b)


@lru_cache(maxsize=1)
def _index() -> _Index:
    c5 = np.array(list(combinations(range(13), 5)), dtype=np.intp)
    c3 = np.array(list(combinations(range(13), 3)), dtype=np.intp)
    of_mask = np.full(1 << 13, -1, dtype=np.intp)
    of_mask[(1 << c5).sum(1)] = np.arange(len(c5))
    full = (1 << 13) - 1
    pick = np.array(list(combinations(range(10), 5)), dtype=np.intp)  # 252 ways to pick the middle
    rest = np.array([[p for p in range(13) if p not in h] for h in c3.tolist()], dtype=np.intp)  # (286, 10)
    first = rest[:, pick]                                    # (286, 252, 5)
    mask_a = (1 << first).sum(2)
    mask_b = full ^ (1 << c3).sum(1)[:, None] ^ mask_a
    a, b = of_mask[mask_a], of_mask[mask_b]
    keep = a < b
    head = np.broadcast_to(np.arange(len(c3))[:, None], a.shape)[keep]
    return _Index(c5, c3, head, a[keep], b[keep])


# ------------------------------------------------------------------ scoring all splits of one hand


@dataclass(frozen=True)
class _Scored:
    h: np.ndarray
    m: np.ndarray
    t: np.ndarray
    mid_is_a: np.ndarray
    legal: np.ndarray


def _split_values(codes: np.ndarray, tables: fasteval.Tables, strict: bool) -> _Scored:
    ix = _index()
    v5 = tables.eval5(codes[ix.c5])
    v3 = tables.eval3(codes[ix.c3])
    va, vb = v5[ix.a], v5[ix.b]
    mid_is_a = va <= vb
    m = np.minimum(va, vb).astype(np.intp)
    t = np.maximum(va, vb).astype(np.intp)
    h = v3[ix.head].astype(np.intp)
    legal = h < m  # a head never equals a 5-card row on the scale; "equal first cards" sorts below
    if strict:
        legal &= m < t
    return _Scored(h, m, t, mid_is_a, legal)


def _expected(s: _Scored, model: winprob.RowModel, rules: RuleSet, opponents: int) -> np.ndarray:
    """Fast score of every split: expected points per opponent with the rows taken as independent
    (illegal splits included; mask them after)."""
    h, m, t = s.h, s.m, s.t
    bh, bm, bt = model.base
    wh, wm, wt = model.win
    lh, lm, lt = model.lose
    ph, pm, pt = model.points
    th, tm, tt = model.taken
    e = bh[h] + bm[m] + bt[t]
    f = rules.scoop_factor
    p_win = wh[h] * wm[m] * wt[t]
    won = ph[h] + pm[m] + pt[t]
    lose_h, lose_m, lose_t = lh[h], lm[m], lt[t]
    lost = th[h] * lose_m * lose_t + lose_h * tm[m] * lose_t + lose_h * lose_m * tt[t]
    if f != 1:
        e += (f - 1) * (won * p_win - lost)
    if _home_runs(rules, opponents):
        e += (rules.home_run_factor - 1) * f * (won * p_win ** opponents
                                                 - lost * model.scoop_rate ** (opponents - 1))
    return e


def _home_runs(rules: RuleSet, opponents: int) -> bool:
    return rules.home_run_factor != 1 and opponents >= 2 and opponents + 1 >= rules.home_run_min_players


def exact_expected(values: np.ndarray, model: winprob.RowModel, rules: RuleSet,
                   opponents: int = 3) -> np.ndarray:
    """Expected points per opponent of layouts with row `values` (k, 3).

    Row points and royalties depend on one row at a time, so they come from the per-value arrays
    (the whole sample's marginals); a scoop depends on all three rows at once, so it is counted
    against the model's sampled opponents with their rows compared together (keeping the rows'
    correlation). Home run: my scoop rate against the sample to the power of the opponents, an
    opponent's from the sample's own scoop rate."""
    v = np.asarray(values, dtype=np.intp)
    h, m, t = v[:, 0], v[:, 1], v[:, 2]
    e = model.base[0][h] + model.base[1][m] + model.base[2][t]
    f = rules.scoop_factor
    if f == 1 and not _home_runs(rules, opponents):
        return e
    o = model.opp
    scoop = (h[:, None] > o[:, 0]) & (m[:, None] > o[:, 1]) & (t[:, None] > o[:, 2])    # (k, n)
    scooped = (h[:, None] < o[:, 0]) & (m[:, None] < o[:, 1]) & (t[:, None] < o[:, 2])
    p_scoop = np.count_nonzero(scoop, axis=1) / len(o)
    won = p_scoop * (model.points[0][h] + model.points[1][m] + model.points[2][t])
    lost = scooped.astype(np.float64) @ model.opp_scoop_points / len(o)
    e += (f - 1) * (won - lost)
    if _home_runs(rules, opponents):
        e += (rules.home_run_factor - 1) * f * (won * p_scoop ** (opponents - 1)
                                                 - lost * model.scoop_rate ** (opponents - 1))
    return e


def _greedy_key(s: _Scored) -> np.ndarray:
    """Lexicographic (tail, middle, head) as one integer, for the greedy baseline."""
    return (s.t.astype(np.int64) << 32) | (s.m.astype(np.int64) << 16) | s.h.astype(np.int64)


def _positions(k: int, s: _Scored) -> Split:
    ix = _index()
    a, b = ix.c5[ix.a[k]], ix.c5[ix.b[k]]
    mid, tail = (a, b) if s.mid_is_a[k] else (b, a)
    return ix.c3[ix.head[k]], mid, tail


POOL = 512
"""Splits kept from the fast score for exact re-scoring (before merging equal row values)."""
FINALISTS = 48
"""Distinct row-value layouts re-scored exactly against the sampled opponents."""


def _ranked(s: _Scored, model: winprob.RowModel, rules: RuleSet, opponents: int,
            exact: bool = True, at_least: int = FINALISTS) -> tuple[np.ndarray, np.ndarray]:
    """Legal splits worth showing, best first, one per distinct (head, middle, tail) value, with
    their expected points: the fast score ranks all, the best `FINALISTS` (and the greedy layout,
    so the answer is never below it) are re-scored exactly and come first."""
    fast = np.where(s.legal, _expected(s, model, rules, opponents), -np.inf)
    n_legal = int(s.legal.sum())
    want = min(n_legal, max(POOL, 4 * at_least))
    pool = np.argpartition(-fast, want - 1)[:want] if want < len(fast) else np.flatnonzero(s.legal)
    pool = pool[np.lexsort((pool, -fast[pool]))]
    pool = pool[np.isfinite(fast[pool])]
    keys = (s.h[pool].astype(np.int64) << 32) | (s.m[pool].astype(np.int64) << 16) | s.t[pool]
    _, first = np.unique(keys, return_index=True)
    pool = pool[np.sort(first)]
    if not exact:
        return pool, fast[pool]
    finalists = pool[:max(FINALISTS, at_least)]
    g = int(np.argmax(np.where(s.legal, _greedy_key(s), -1)))
    gkey = (int(s.h[g]), int(s.m[g]), int(s.t[g]))
    in_pool = any((int(s.h[k]), int(s.m[k]), int(s.t[k])) == gkey for k in finalists.tolist())
    if not in_pool:
        finalists = np.append(finalists, g)
    vals = np.stack([s.h[finalists], s.m[finalists], s.t[finalists]], axis=1)
    score = exact_expected(vals, model, rules, opponents)
    order = np.lexsort((np.arange(len(finalists)), -score))
    return finalists[order], score[order]


def best_split(codes: np.ndarray, rules: RuleSet, model: winprob.RowModel | None, exact: bool = True,
               opponents: int = 3) -> Split:
    """The best legal split of 13 card codes: by the model, or greedy (strongest tail first) if None."""
    s = _split_values(codes, fasteval.tables_for(rules), rules.strict_order)
    if not s.legal.any():
        raise TableError("these 13 cards have no legal arrangement under these rules")
    if model is None:
        return _positions(int(np.argmax(np.where(s.legal, _greedy_key(s), -1))), s)
    if not exact:
        fast = np.where(s.legal, _expected(s, model, rules, opponents), -np.inf)
        return _positions(int(np.argmax(fast)), s)
    ranked, _ = _ranked(s, model, rules, opponents)
    return _positions(int(ranked[0]), s)


def split_classes(codes: np.ndarray, split: Split) -> np.ndarray:
    """Rule-independent row classes (`fasteval` table indices) of a split, for histograms."""
    out = []
    for r, pos in enumerate(split):
        c = codes[pos].astype(np.intp)
        k = int(fasteval.CODE_KEY[c].sum())
        if r > 0:
            k += fasteval.SPAN5 * int(np.bitwise_and.reduce(fasteval.CODE_SUIT[c]) != 0)
        out.append(k)
    return np.array(out)


def split_values(codes: np.ndarray, split: Split, tables: fasteval.Tables) -> np.ndarray:
    """Row values (evaluator scale) of a split."""
    return np.array([
        tables.eval3(codes[split[0]][None])[0], tables.eval5(codes[split[1]][None])[0],
        tables.eval5(codes[split[2]][None])[0],
    ])


# ------------------------------------------------------------------ public API


def _rules(rules: RuleSet | str) -> RuleSet:
    return preset(rules) if isinstance(rules, str) else rules


def _hand(cards: Sequence[Card | str] | str) -> list[Card]:
    hand = parse_cards(cards)
    if len(hand) != 13:
        raise TableError(f"an arrangement needs 13 cards, not {len(hand)}")
    return hand


def _codes(hand: Sequence[Card], rules: RuleSet) -> np.ndarray:
    codes = fasteval.encode(hand)
    wild = np.array([rules.is_wild(c) for c in hand])
    codes[wild] = fasteval.WILD * 4
    return codes


def _make(hand: Sequence[Card], split: Split, rules: RuleSet, expected: float,
          model: winprob.RowModel | None, special: Special | None = None) -> Arrangement:
    rows = [tuple(sort_cards(hand[i] for i in pos.tolist())) for pos in split]
    values = tuple(evaluate(r, rules) for r in rows)
    if special is not None or model is None:
        return Arrangement(*rows, expected=expected, special=special, values=values)
    tables = fasteval.tables_for(rules)
    v = split_values(_codes(hand, rules), split, tables)
    win = tuple(float(model.win[r][v[r]]) for r in range(3))
    lose = tuple(float(model.lose[r][v[r]]) for r in range(3))
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
    """The `top` best legal arrangements of 13 cards, highest expected points per opponent first.

    Distinct row values only (two layouts that differ in an equal kicker's suit are one answer).
    A declarable special hand is a candidate too, and with `top` > 1 always among the answers
    (last where rows are expected to pay more); `specials=False` leaves it out. `opponents`:
    how many others sit at the table (only the home-run terms use it). See the module docstring
    for the model. Raises `TableError` when there are not 13 cards or no legal layout."""
    rules = _rules(rules)
    hand = _hand(cards)
    codes = _codes(hand, rules)
    model = winprob.model_for(rules)
    s = _split_values(codes, fasteval.tables_for(rules), rules.strict_order)
    if not s.legal.any():
        raise TableError("these 13 cards have no legal arrangement under these rules")
    ranked, score = _ranked(s, model, rules, opponents, at_least=top + 2)
    out: list[Arrangement] = []
    for k, e in zip(ranked.tolist(), score.tolist(), strict=True):
        arr = _make(hand, _positions(k, s), rules, float(e), model)
        if out_of_order(dict(zip(ROWS, arr.values, strict=True)), rules):
            continue  # the rules engine has the last word on legality
        out.append(arr)
        if len(out) >= top:
            break
    if specials:
        best_k = int(ranked[0]) if len(ranked) else None
        for sp, split in _special_candidates(hand, rules, s, codes, best_k):
            out.append(_make(hand, split, rules, float(sp.points), model, special=sp))
        out.sort(key=lambda a: -a.expected)
        offered = next((a for a in out if a.special is not None), None)
        out = out[:top]
        if top > 1 and offered is not None and all(a is not offered for a in out):
            out[-1] = offered  # a special is always offered (with its value), even where rows pay more
    return out


def greedy(cards: Sequence[Card | str] | str, rules: RuleSet | str = "taiwan") -> Arrangement:
    """The baseline: strongest tail, then the strongest middle of the rest, then the head (legal)."""
    rules = _rules(rules)
    hand = _hand(cards)
    split = best_split(_codes(hand, rules), rules, None)
    return _make(hand, split, rules, expected_of(hand, split, rules), winprob.model_for(rules))


def expected_of(hand: Sequence[Card], split: Split, rules: RuleSet, opponents: int = 3) -> float:
    """The model's expected points per opponent of one given split (the exact score)."""
    v = split_values(_codes(hand, rules), split, fasteval.tables_for(rules))
    return float(exact_expected(v[None, :], winprob.model_for(rules), rules, opponents)[0])


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
    """`arrange` and `check` subcommands for `python -m scoring` (see `scoring.cli.EXTENSIONS`)."""
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
