"""The solver's score of a split: expected points per opponent under the opponent model.

Model (`scoring.winprob`: opponents arranged by this solver itself, one sample per preset,
re-weighted to the cards each hand leaves for them):

* rows: each row's value v gives P(win), P(lose) against an opponent's row in the same place;
  expected row points = points(v) * P(win) - E[opponent's points; opponent's row better], with
  `row_points` or the winning hand's `row_values` (exact by linearity: no independence needed);
* royalties: `on_win` ones weighted by P(win) (the opponent's by P(lose)), `always` ones in full;
* scoop: (scoop_factor - 1) times the row points of winning all three rows, less the same for
  losing all three;
* home run (3+ players, `opponents` others): my scoop chance to the power of the opponents, and
  being home-run by an opponent from the simulated scoop rate.

Two stages keep it fast: every split gets a fast score that treats the three rows as independent
(the scoop chance is the product of the three P(win)); the best `FINALISTS` distinct layouts (plus
the greedy one, so the answer is never below it) are re-scored with the scoop counted against the
model's sampled opponents' actual row triples, which keeps their rows' correlation (independence
halves the chance of being scooped). The fast stage uses the unconditional model; the finalists
are scored with the model given the hand. Everything works on a batch of hands at once.
"""

from __future__ import annotations

import numpy as np

from scoring.rules import RuleSet
from scoring.splits import Scored, greedy_splits
from scoring.winprob import RowModel

POOL = 512
"""Splits kept from the fast score for exact re-scoring (before merging equal row values)."""
FINALISTS = 48
"""Distinct row-value layouts re-scored exactly against the sampled opponents."""
_CHUNK = 1024
"""Layouts compared with the sampled opponents per numpy call (bounds the memory)."""


def home_runs(rules: RuleSet, opponents: int) -> bool:
    return rules.home_run_factor != 1 and opponents >= 2 and opponents + 1 >= rules.home_run_min_players


def _at(per_value: np.ndarray, v: np.ndarray) -> np.ndarray:
    """per_value[v] for a (size,) array; row by row for a per-hand (B, size) one (v: (B, ...))."""
    if per_value.ndim == 1:
        return per_value[v]
    if len(per_value) == 1:
        return per_value[0][v]
    return np.take_along_axis(per_value, v.reshape(len(v), -1), axis=1).reshape(v.shape)


def fast_expected(s: Scored, model: RowModel, rules: RuleSet, opponents: int) -> np.ndarray:
    """Fast score of every split: expected points per opponent with the rows taken as independent
    (illegal splits included; mask them after)."""
    h, m, t = s.h, s.m, s.t
    bh, bm, bt = model.base
    wh, wm, wt = model.win
    lh, lm, lt = model.lose
    ph, pm, pt = model.points
    th, tm, tt = model.taken
    e = _at(bh, h) + _at(bm, m) + _at(bt, t)
    f = rules.scoop_factor
    p_win = _at(wh, h) * _at(wm, m) * _at(wt, t)
    won = ph[h] + pm[m] + pt[t]
    lose_h, lose_m, lose_t = _at(lh, h), _at(lm, m), _at(lt, t)
    lost = _at(th, h) * lose_m * lose_t + lose_h * _at(tm, m) * lose_t + lose_h * lose_m * _at(tt, t)
    if f != 1:
        e += (f - 1) * (won * p_win - lost)
    if home_runs(rules, opponents):
        e += (rules.home_run_factor - 1) * f * (won * p_win ** opponents
                                                 - lost * model.scoop_rate ** (opponents - 1))
    return e


def exact_expected(values: np.ndarray, model: RowModel, rules: RuleSet, opponents: int = 3) -> np.ndarray:
    """Expected points per opponent of layouts with row `values` (B, k, 3), k layouts of each of
    B hands (B = 1 for the unconditional model), (B, k).

    Row points and royalties depend on one row at a time, so they come from the per-value arrays
    (the whole sample's marginals); a scoop depends on all three rows at once, so it is counted
    against the model's sampled opponents with their rows compared together (keeping the rows'
    correlation), each weighted for the hand (`RowModel.opp_weight`). Home run: my scoop rate
    against the sample to the power of the opponents, an opponent's from the sample's scoop rate."""
    v = np.asarray(values, dtype=np.intp)
    h, m, t = v[..., 0], v[..., 1], v[..., 2]
    e = _at(model.base[0], h) + _at(model.base[1], m) + _at(model.base[2], t)
    f = rules.scoop_factor
    if f == 1 and not home_runs(rules, opponents):
        return e
    o = model.opp
    p_scoop = np.empty(h.shape)
    lost = np.empty(h.shape)
    for b in range(len(v)):
        w = np.ones(len(o)) if model.opp_weight is None else model.opp_weight[b]
        for lo in range(0, v.shape[1], _CHUNK):
            sl = slice(lo, lo + _CHUNK)
            hh, mm, tt = h[b, sl, None], m[b, sl, None], t[b, sl, None]
            scoop = (hh > o[:, 0]) & (mm > o[:, 1]) & (tt > o[:, 2])    # (k, n)
            scooped = (hh < o[:, 0]) & (mm < o[:, 1]) & (tt < o[:, 2])
            # sums, not `@`: a BLAS call per hand costs more than it saves on a busy machine
            p_scoop[b, sl] = np.where(scoop, w, 0.0).sum(1) / len(o)
            lost[b, sl] = np.where(scooped, w * model.opp_scoop_points, 0.0).sum(1) / len(o)
    won = p_scoop * (model.points[0][h] + model.points[1][m] + model.points[2][t])
    e += (f - 1) * (won - lost)
    if home_runs(rules, opponents):
        e += (rules.home_run_factor - 1) * f * (won * p_scoop ** (opponents - 1)
                                                 - lost * model.scoop_rate ** (opponents - 1))
    return e


def finalists(s: Scored, fast: np.ndarray, count: int) -> np.ndarray:
    """Per hand, the `count` best legal splits by the fast score, one per distinct row-value
    layout, best first (B, count); a hand with fewer distinct layouts repeats its best one.
    Then the greedy split, so the exact stage never ranks below it: (B, count + 1)."""
    n_hands, n = fast.shape
    want = min(n, max(POOL, 4 * count))
    if want < n:
        pool = np.argpartition(-fast, want - 1, axis=1)[:, :want]
    else:
        pool = np.tile(np.arange(n), (n_hands, 1))
    pf = np.take_along_axis(fast, pool, axis=1)
    order = np.lexsort((pool, -pf), axis=1)          # best first; equal scores by split index
    pool = np.take_along_axis(pool, order, axis=1)
    pf = np.take_along_axis(pf, order, axis=1)
    keys = s.keys(pool)
    by_key = np.argsort(keys, axis=1, kind="stable")  # equal keys keep their rank order
    sk = np.take_along_axis(keys, by_key, axis=1)
    first_sorted = np.ones_like(sk, dtype=bool)
    first_sorted[:, 1:] = sk[:, 1:] != sk[:, :-1]
    first = np.empty_like(first_sorted)
    np.put_along_axis(first, by_key, first_sorted, axis=1)
    first &= np.isfinite(pf)
    pick = np.argsort(~first, axis=1, kind="stable")[:, :count]
    chosen = np.take_along_axis(pool, pick, axis=1)
    ok = np.take_along_axis(first, pick, axis=1)
    chosen = np.where(ok, chosen, pool[:, :1])
    return np.concatenate([chosen, greedy_splits(s)[:, None]], axis=1)


def ranked(s: Scored, model: RowModel, rules: RuleSet, opponents: int,
           count: int = FINALISTS) -> tuple[np.ndarray, np.ndarray]:
    """Per hand, the finalists (B, count + 1) re-scored exactly, best first (equal scores keep
    the fast order), with their expected points per opponent. A model given the hands ranks
    all splits by its unconditional `prior` and scores the finalists per hand."""
    fast = np.where(s.legal, fast_expected(s, model.prior or model, rules, opponents), -np.inf)
    cand = finalists(s, fast, count)
    score = exact_expected(s.values(cand), model, rules, opponents)
    order = np.lexsort((np.broadcast_to(np.arange(cand.shape[1]), cand.shape), -score), axis=1)
    return np.take_along_axis(cand, order, axis=1), np.take_along_axis(score, order, axis=1)


def best_splits(s: Scored, model: RowModel | None, rules: RuleSet, opponents: int = 3) -> np.ndarray:
    """Per hand, the solver's split (B,): by the model, or greedy when `model` is None."""
    if model is None:
        return greedy_splits(s)
    return ranked(s, model, rules, opponents)[0][:, 0]
