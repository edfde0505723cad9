"""Opponent model for the solver: the rows opponents lay out, from a simulated sample per preset.

The solver (`scoring.arrange`) scores a layout by its expected points against one opponent, so it
needs the rows opponents play. The opponents modelled are players who arrange with the solver
itself: `scoring.selfplay` deals random hands and arranges them with the solver, again and again
with the model of the last round, until the layouts stop changing (a fixed point: the solver
plays against itself). The sample is shipped as package data (`scoring/data/winprob.npz`), one
per preset because the wheel and the points differ; rebuild with ``python scripts/build_tables.py``.

What is stored, per preset, is the sample itself: each hand's three rows as rule-independent row
classes (`fasteval` key sum and flush flag), so a table that overrides an option (the wheel, row
points, royalties) maps the same sample onto its own order and points.

`model_for(rules)` turns the sample into a `RowModel`:

* per-value arrays on the evaluator's scale, from the sample's marginal histograms: P(win),
  P(lose), the points a row earns when it wins (`row_points` or `row_values`), the points an
  opponent's better row takes, royalties -- the solver's fast score of all 36,036 splits treats
  the three rows as independent with these;
* the first `EXACT_OPPONENTS` sampled opponents' row values and points, against which the solver
  re-scores its best candidates exactly (rows are correlated: a strong tail comes with a strong
  middle, and treating them as independent halves the chance of being scooped);
* `scoop_rate`: how often one sampled hand scoops another (for an opponent's home run).

Limits: the opponent is a random hand from a 52-card deck -- no jokers, no specials, no fouls,
and not dealt from the cards the player does not hold -- and equal rows tie (the natural-wins and
suit tie-breaks are ignored).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from scoring import fasteval
from scoring.categories import ROWS, Category
from scoring.rules import PRESETS, RoyaltyMode, RuleSet

DATA = Path(__file__).with_name("data") / "winprob.npz"
EXACT_OPPONENTS = 5000
"""Sampled opponents the solver's finalists are scored against exactly (common to all candidates)."""


@dataclass(frozen=True)
class Sample:
    """Simulated opponents for one preset: `rows` (n, 3) row classes (head: index into
    `Tables.three`; middle, tail: into `Tables.five`); `scoop_rate` = P(a hand scoops another)."""

    rows: np.ndarray
    scoop_rate: float


@dataclass(frozen=True)
class RowModel:
    """A table's opponent model; per-value arrays are indexed by the value on the evaluator's scale.

    `base[r][v]`: expected net points of row r with value v against one opponent before any scoop
    (row points won minus lost, plus royalties either way); `win`, `lose`: probabilities;
    `points`: row points this row earns when it wins; `taken[r][v]`: expected row points an
    opponent's row wins from it; `roy_win` / `roy_always`: its royalties by mode.
    `opp` (m, 3): sampled opponents' row values; `opp_scoop_points` (m,): the row points each
    would score winning all three rows (before the scoop factor)."""

    base: tuple[np.ndarray, np.ndarray, np.ndarray]
    win: tuple[np.ndarray, np.ndarray, np.ndarray]
    lose: tuple[np.ndarray, np.ndarray, np.ndarray]
    points: tuple[np.ndarray, np.ndarray, np.ndarray]
    taken: tuple[np.ndarray, np.ndarray, np.ndarray]
    roy_win: tuple[np.ndarray, np.ndarray, np.ndarray]
    roy_always: tuple[np.ndarray, np.ndarray, np.ndarray]
    opp: np.ndarray
    opp_scoop_points: np.ndarray
    scoop_rate: float


def sample_values(sample: Sample, tables: fasteval.Tables) -> np.ndarray:
    """The sample's rows as values on `tables`' scale, (n, 3)."""
    r = sample.rows
    cols = [tables.three[r[:, 0]], tables.five[r[:, 1]], tables.five[r[:, 2]]]
    return np.stack(cols, axis=1).astype(np.intp)


def _by_category(rules: RuleSet, row: str, cats: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Row points, `on_win` royalties and `always` royalties of every value, from its category."""
    pts = np.array([rules.row_win_points(row, Category(c)) for c in range(10)], dtype=np.float64)
    win = np.zeros(10)
    always = np.zeros(10)
    for roy in rules.royalties:
        hit = np.array([roy.applies_to(row, Category(c)) for c in range(10)]) * float(roy.points)
        if roy.mode == RoyaltyMode.ALWAYS:
            always += hit
        else:
            win += hit
    return pts[cats], win[cats], always[cats]


def _above_sum(p: np.ndarray, x: np.ndarray) -> np.ndarray:
    """sum over u > v of p[u] * x[u], for every v."""
    c = np.cumsum((p * x)[::-1])[::-1]
    return np.concatenate((c[1:], [0.0]))


def build_model(rules: RuleSet, sample: Sample, exact: int = EXACT_OPPONENTS) -> RowModel:
    """The model for `rules` from a simulated `sample` (vectorised over the value scale)."""
    tables = fasteval.tables_for(rules)
    values = sample_values(sample, tables)
    names = ("base", "win", "lose", "points", "taken", "roy_win", "roy_always")
    arrays: dict[str, list[np.ndarray]] = {k: [] for k in names}
    for r, row in enumerate(ROWS):
        p = np.bincount(values[:, r], minlength=tables.size).astype(np.float64)
        p /= p.sum()
        below = np.concatenate(([0.0], np.cumsum(p)[:-1]))
        above = np.clip(1.0 - below - p, 0.0, 1.0)
        pts, roy_win, roy_always = _by_category(rules, row, tables.category)
        taken = _above_sum(p, pts)
        base = (pts + roy_win) * below - taken - _above_sum(p, roy_win) + roy_always - float(p @ roy_always)
        for k, arr in (("base", base), ("win", below), ("lose", above), ("points", pts), ("taken", taken),
                       ("roy_win", roy_win), ("roy_always", roy_always)):
            arr.setflags(write=False)
            arrays[k].append(arr)
    opp = np.ascontiguousarray(values[:exact])
    opp_scoop_points = sum(arrays["points"][r][opp[:, r]] for r in range(3))
    return RowModel(**{k: tuple(v) for k, v in arrays.items()}, opp=opp,
                    opp_scoop_points=np.asarray(opp_scoop_points, dtype=np.float64),
                    scoop_rate=sample.scoop_rate)


@lru_cache(maxsize=1)
def load_samples(path: str = str(DATA)) -> dict[str, Sample]:
    """The shipped samples, one per preset name."""
    out: dict[str, Sample] = {}
    with np.load(path) as z:
        for name in PRESETS:
            if f"{name}_rows" in z:
                out[name] = Sample(z[f"{name}_rows"].astype(np.intp), float(z[f"{name}_scoop_rate"]))
    return out


def sample_for(rules: RuleSet) -> Sample:
    """The preset's own sample, or for a custom rule set that of a preset with the same wheel."""
    samples = load_samples()
    if rules.name in samples:
        return samples[rules.name]
    for name, ps in PRESETS.items():
        if ps.wheel == rules.wheel and name in samples:
            return samples[name]
    return next(iter(samples.values()))


@lru_cache(maxsize=32)
def model_for(rules: RuleSet) -> RowModel:
    """The opponent model for a table's rules (cached: RuleSet is frozen and hashable)."""
    return build_model(rules, sample_for(rules))
