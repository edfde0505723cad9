"""How far the solver's choice is from the best split, against opponents who play the solver.

    python -m benchmarks.arrange_quality [--hands 100] [--opponents 1000] [--tables luosong:2,taiwan:4]
        [--seed 19] [--pool 60000 --pool-cache DIR] [--save run.json];
        --report run1.json run2.json ... prints saved runs together
    (also: python -m benchmarks.arrange --quality ...)

For each of N random hands (52-card deck, no jokers), per table (a preset and a number of players):

1. deal two sets of M tables of opponents from the 39 cards the hand leaves (each table: the
   other players' hands, from one shuffle), and arrange every opponent with the solver itself
   (`scoring.expectation.best_splits`, told the table's size);
2. score every legal split of the hand (one per distinct row-value layout) against every table
   of both sets by simulation: rows, scoop, home run (3+ players: scooping every other player,
   the opponents' scoops of each other included), royalties, exactly as `scoring.settle` would
   (checked: the first hands' random (split, table) pairs are settled by `scoring.settle` too, and
   the mismatches printed);
3. the best split is the best on set A, scored on set B; the solver's top choice
   (`scoring.arrange`, specials off) and greedy's are scored on set B; the gap is best minus
   choice, in points per hand (the player's total over all opponents).

With `--pool P`, a heads-up table's opponents are not dealt and arranged per hand: they are the
hands of one pool of P random hands, arranged once, that share no card with the hand (exactly a
deal from the 39 cards it leaves; `benchmarks.opponent_pool`), split alternately into A and B
(about P / 156 tables each). Many more hands then cost little more than their splits' scoring.

Printed per table: mean, median and 90th percentile gap, share of hands within 0.05 and at 0, for
the solver and for greedy; the calibration of the solver's expected score (per opponent, times
the opponents) against what its layout measures over both sets (which the solver never sees),
overall and by thirds of the expected (`benchmarks.calibration`): the bias with its standard
error over the hands, and the per-hand rms difference split into the measurement's own noise
(each hand's standard error over its 2M tables) and the model's error. The same for greedy.
With a small M the best-on-A pick is noisy, so the gap is understated: use the issue's sizes for
figures to quote. Figures are printed, not asserted.
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
from tqdm import tqdm

from benchmarks import opponent_pool
from benchmarks.calibration import by_thirds, calibrate, describe
from benchmarks.opponent_pool import Pool
from scoring import fasteval
from scoring.arrange import arrange, expected_score, greedy
from scoring.categories import ROWS, Category
from scoring.expectation import best_splits
from scoring.rules import PRESETS, RoyaltyMode, RuleSet
from scoring.settlement import settle
from scoring.splits import positions, score_splits
from scoring.winprob import model_given

BATCH = 16
CHECKED_HANDS = 3
CHECKED_PAIRS = 40


@dataclass(frozen=True)
class Points:
    """Per-value point arrays of one table's rules (indexed by row, then value)."""

    row: tuple[np.ndarray, ...]        # row points the row's winner scores with that value
    on_win: tuple[np.ndarray, ...]     # royalties paid by an opponent whose row it beats
    always: tuple[np.ndarray, ...]     # royalties paid by every opponent


def points_of(rules: RuleSet) -> Points:
    cats = fasteval.tables_for(rules).category
    row, on_win, always = [], [], []
    for r in ROWS:
        row.append(np.array([rules.row_win_points(r, Category(c)) for c in range(10)], float)[cats])
        w, a = np.zeros(10), np.zeros(10)
        for roy in rules.royalties:
            hit = np.array([roy.applies_to(r, Category(c)) for c in range(10)], float) * roy.points
            if roy.mode == RoyaltyMode.ALWAYS:
                a += hit
            else:
                w += hit
        on_win.append(w[cats])
        always.append(a[cats])
    return Points(tuple(row), tuple(on_win), tuple(always))


def solver_layouts(codes: np.ndarray, rules: RuleSet, opponents: int) -> tuple[np.ndarray, np.ndarray]:
    """Row values (n, 3) of the solver's layout of each hand, and the chosen split indices."""
    tables = fasteval.tables_for(rules)
    values = np.empty((len(codes), 3), dtype=np.intp)
    picks = np.empty(len(codes), dtype=np.intp)
    for lo in range(0, len(codes), BATCH):
        s = score_splits(codes[lo:lo + BATCH], tables, rules.strict_order)
        k = best_splits(s, model_given(rules, codes[lo:lo + BATCH]), rules, opponents)
        values[lo:lo + BATCH] = s.values(k[:, None])[:, 0]
        picks[lo:lo + BATCH] = k
    return values, picks


def _beats(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a scoops b: every row of a above b's (broadcast over leading axes; last axis the rows)."""
    return (a > b).all(-1)


def table_points(mine: np.ndarray, opp: np.ndarray, rules: RuleSet, pts: Points) -> np.ndarray:
    """My total points (K, M) with each of my layouts `mine` (K, 3) at each table of opponents'
    layouts `opp` (M, P-1, 3)."""
    n_opp = opp.shape[1]
    home_ok = rules.home_run_factor != 1 and n_opp + 1 >= max(rules.home_run_min_players, 3)
    f, hr = rules.scoop_factor, rules.home_run_factor
    # opponent j scoops every other opponent (needed for j's home run)
    others = np.ones(opp.shape[:2], dtype=bool)
    for j in range(n_opp):
        for i in range(n_opp):
            if i != j:
                others[:, j] &= _beats(opp[:, j], opp[:, i])
    me = mine[:, None, None, :]                      # (K, 1, 1, 3)
    o = opp[None]                                    # (1, M, P-1, 3)
    win, lose = me > o, me < o                       # (K, M, P-1, 3)
    rows = np.zeros(win.shape[:3])
    roy = np.zeros(win.shape[:3])
    for r in range(3):
        mv, ov = mine[:, r][:, None, None], opp[:, :, r][None]
        rows += np.where(win[..., r], pts.row[r][mv], 0.0) - np.where(lose[..., r], pts.row[r][ov], 0.0)
        roy += np.where(win[..., r], pts.on_win[r][mv], 0.0) - np.where(lose[..., r], pts.on_win[r][ov], 0.0)
        roy += pts.always[r][mv] - pts.always[r][ov]
    scoop, scooped = win.all(-1), lose.all(-1)       # (K, M, P-1)
    mult = np.where(scoop | scooped, f, 1).astype(float)
    if home_ok:
        my_home = scoop.all(-1, keepdims=True)
        their_home = scooped & others[None]
        mult *= np.where((scoop & my_home) | their_home, hr, 1)
    return (rows * mult + roy).sum(-1)


def mean_points(mine: np.ndarray, opp: np.ndarray, rules: RuleSet, pts: Points,
                chunk: int = 256) -> np.ndarray:
    """Mean over the tables of `table_points`, in chunks of layouts."""
    return np.concatenate([table_points(mine[lo:lo + chunk], opp, rules, pts).mean(1)
                           for lo in range(0, len(mine), chunk)])


def _cards(codes: np.ndarray, split) -> list[str]:
    return [" ".join(fasteval.decode(codes[p]) for p in pos) for pos in split]


def check_with_settle(rules: RuleSet, hand: np.ndarray, layouts: np.ndarray, splits: np.ndarray,
                      s_mine, opp_codes: np.ndarray, opp_splits: np.ndarray, opp_values: np.ndarray,
                      rng: np.random.Generator, pts: Points) -> int:
    """Mismatches between `table_points` and `scoring.settle` on random (layout, table) pairs."""
    tables = fasteval.tables_for(rules)
    bad = 0
    for _ in range(CHECKED_PAIRS):
        k, t = int(rng.integers(len(layouts))), int(rng.integers(len(opp_codes)))
        players = [dict(zip(ROWS, _cards(hand, positions(int(splits[k]), s_mine)), strict=True), name="me")]
        for j in range(opp_codes.shape[1]):
            s_j = score_splits(opp_codes[t, j], tables, rules.strict_order)
            rows = _cards(opp_codes[t, j], positions(int(opp_splits[t, j]), s_j))
            players.append(dict(zip(ROWS, rows, strict=True), name=f"o{j}", declare=False))
        players[0]["declare"] = False
        got = settle({"rules": rules.name, "players": players}).totals["me"]
        want = table_points(layouts[k:k + 1], opp_values[t:t + 1], rules, pts)[0, 0]
        bad += int(abs(got - want) > 1e-9)
    return bad


def _key(v: np.ndarray) -> int:
    return (int(v[0]) << 32) | (int(v[1]) << 16) | int(v[2])


@dataclass
class HandResult:
    """One hand's figures (points per hand). `measured`: the layout's mean over both sets of
    tables (the solver sees neither), `measured_se` that mean's standard error."""

    gap: float
    greedy_gap: float
    expected: float
    measured: float
    greedy_expected: float
    greedy_measured: float
    measured_se: float = float("nan")
    greedy_measured_se: float = float("nan")


OpponentSet = tuple[np.ndarray, np.ndarray, np.ndarray | None]
"""One set of M tables: codes (M, P-1, 13), row values (M, P-1, 3), split indices (M, P-1) or None."""


def opponent_sets(rules: RuleSet, n_opp: int, hand: np.ndarray, rest: np.ndarray,
                  deck_rng: np.random.Generator, m: int, pool: Pool | None) -> list[OpponentSet]:
    """Two sets of M tables of opponents for `hand`: dealt from the cards it leaves (`rest`) and
    arranged, or, heads-up with a `pool`, the pool's hands disjoint from it (alternately; at most
    M each)."""
    if pool is not None:
        idx = pool.disjoint(hand)
        halves = idx[0::2][:m], idx[1::2][:m]
        return [(pool.codes[i][:, None], pool.values[i][:, None], None) for i in halves]
    sets: list[OpponentSet] = []
    for _ in range(2):
        deals = np.stack([deck_rng.permutation(rest)[:13 * n_opp] for _ in range(m)])
        codes = np.sort(deals.reshape(m, n_opp, 13), axis=2)
        values, picks = solver_layouts(codes.reshape(-1, 13), rules, n_opp)
        sets.append((codes, values.reshape(m, n_opp, 3), picks.reshape(m, n_opp)))
    return sets


def one_hand(rules: RuleSet, players: int, deck_rng: np.random.Generator, m: int, pts: Points,
             check: bool, pool: Pool | None = None) -> tuple[HandResult, int]:
    n_opp = players - 1
    tables = fasteval.tables_for(rules)
    order = deck_rng.permutation(52).astype(np.uint8)
    hand, rest = np.sort(order[:13]), order[13:]
    sets = opponent_sets(rules, n_opp, hand, rest, deck_rng, m, pool)
    s = score_splits(hand, tables, rules.strict_order)
    legal = np.flatnonzero(s.legal[0])
    keys = s.keys(legal[None])[0]
    _, first = np.unique(keys, return_index=True)
    splits = legal[first]
    layouts = s.values(splits[None])[0]
    score_a = mean_points(layouts, sets[0][1], rules, pts)
    score_b = mean_points(layouts, sets[1][1], rules, pts)
    where = {_key(v): i for i, v in enumerate(layouts)}
    cards = [fasteval.decode(c) for c in hand]
    solver = arrange(cards, rules, top=1, opponents=n_opp, specials=False)[0]
    base = greedy(cards, rules)
    pick = where[_key(_values_of(solver, rules))]
    g = where[_key(_values_of(base, rules))]
    best = int(np.argmax(score_a))
    bad = 0
    if check:
        codes_b, values_b, picks_b = sets[1]
        if picks_b is None:  # a pool keeps values only: arrange the set again, which must agree
            values_again, picks_b = solver_layouts(codes_b.reshape(-1, 13), rules, n_opp)
            picks_b = picks_b.reshape(codes_b.shape[:2])
            bad += int((values_again.reshape(values_b.shape) != values_b).any(-1).sum())
        bad += check_with_settle(rules, hand, layouts, splits, s, codes_b, picks_b, values_b, deck_rng, pts)
    both = np.concatenate([sets[0][1], sets[1][1]])
    per_table = table_points(layouts[[pick, g]], both, rules, pts)       # (2, 2M)
    mean, se = per_table.mean(1), per_table.std(1, ddof=1) / np.sqrt(per_table.shape[1])
    result = HandResult(float(score_b[best] - score_b[pick]), float(score_b[best] - score_b[g]),
                        solver.expected * n_opp, float(mean[0]),
                        expected_of_layout(base, rules, n_opp) * n_opp, float(mean[1]),
                        float(se[0]), float(se[1]))
    return result, bad


def expected_of_layout(a, rules: RuleSet, n_opp: int) -> float:
    """The solver's expected points per opponent of layout `a`, told the table size."""
    return expected_score(list(a.head), list(a.middle), list(a.tail), rules, opponents=n_opp)


def _values_of(a, rules: RuleSet) -> np.ndarray:
    tables = fasteval.tables_for(rules)
    return np.array([tables.value(list(a.head)), tables.value(list(a.middle)), tables.value(list(a.tail))])


def _gaps(label: str, gaps: np.ndarray) -> str:
    return (f"{label}: mean gap {gaps.mean():.3f}, median {np.median(gaps):.4f}, "
            f"p90 {np.percentile(gaps, 90):.3f} points/hand; within 0.05: {np.mean(gaps <= 0.05):.0%}, "
            f"best: {np.mean(gaps <= 1e-9):.0%}")


def report(name: str, players: int, results: list[HandResult], bad: int, checked: int, secs: float) -> None:
    gap = np.array([r.gap for r in results])
    ggap = np.array([r.greedy_gap for r in results])
    exp = np.array([r.expected for r in results])
    meas = np.array([r.measured for r in results])
    print(f"\n{name}, {players} players, {len(results)} hands ({secs:.0f}s); settle check: "
          f"{bad} mismatches in {checked} pairs")
    print("  " + _gaps("solver", gap))
    print("  " + _gaps("greedy", ggap))
    se = np.array([r.measured_se for r in results])
    print(f"  solver {describe(calibrate(exp, meas, se))}")
    for lo, hi, c in by_thirds(exp, meas, se):
        print(f"    third by expected [{lo:+.2f}, {hi:+.2f}] ({c.n} hands): {describe(c)}")
    gexp = np.array([r.greedy_expected for r in results])
    gmeas = np.array([r.greedy_measured for r in results])
    print(f"  greedy {describe(calibrate(gexp, gmeas, np.array([r.greedy_measured_se for r in results])))}")


def run(name: str, players: int, hands: int, m: int, seed: int,
        pool: Pool | None = None) -> tuple[list[HandResult], int, int, float]:
    rules = PRESETS[name]
    pts = points_of(rules)
    rng = np.random.default_rng(seed)
    results, bad, checked = [], 0, 0
    t0 = time.perf_counter()
    for i in tqdm(range(hands), desc=f"{name} x{players}", leave=False):
        r, b = one_hand(rules, players, rng, m, pts, check=i < CHECKED_HANDS, pool=pool)
        results.append(r)
        bad += b
        checked += CHECKED_PAIRS if i < CHECKED_HANDS else 0
    secs = time.perf_counter() - t0
    report(name, players, results, bad, checked, secs)
    return results, bad, checked, secs


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--hands", type=int, default=100)
    p.add_argument("--opponents", type=int, default=1000, help="tables of opponents in each of the two sets")
    p.add_argument("--tables", default="luosong:2,taiwan:4", help="preset:players, comma-separated")
    p.add_argument("--seed", type=int, default=19)
    p.add_argument("--pool", type=int, default=0,
                   help="heads-up tables: draw each hand's opponents from a pool of this many hands "
                        "arranged once (benchmarks.opponent_pool) instead of arranging fresh ones")
    p.add_argument("--pool-seed", type=int, default=1)
    p.add_argument("--pool-cache", type=Path, help="a folder to keep pools in, to reuse them across runs")
    p.add_argument("--save", type=Path, help="also write each hand's figures here (JSON), per table")
    p.add_argument("--report", type=Path, nargs="+",
                   help="print the figures of runs saved with --save together (runs nothing)")
    args = p.parse_args(argv)
    if args.report:
        runs = [json.loads(f.read_text()) for f in args.report]
        for spec in runs[0]:
            hands = [HandResult(**h) for run in runs for h in run[spec]["hands"]]
            name, _, n = spec.partition(":")
            report(name, int(n), hands, sum(r[spec]["bad"] for r in runs),
                   sum(r[spec]["checked"] for r in runs), sum(r[spec]["secs"] for r in runs))
        return 0
    saved = {}
    for k, spec in enumerate(args.tables.split(",")):
        name, _, n = spec.partition(":")
        pool = None
        if args.pool and int(n or 2) == 2:
            pool = opponent_pool.load_or_build(PRESETS[name], args.pool, args.pool_seed, args.pool_cache)
        elif args.pool:
            print(f"{spec}: a pool serves heads-up tables only; these opponents are dealt per hand")
        results, bad, checked, secs = run(name, int(n or 2), args.hands, args.opponents, args.seed + k, pool)
        saved[f"{name}:{int(n or 2)}"] = {"hands": [asdict(r) for r in results], "bad": bad,
                                          "checked": checked, "secs": secs}
        if args.save:
            args.save.write_text(json.dumps(saved))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
