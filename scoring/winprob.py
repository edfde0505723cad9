"""Row win probabilities: how often a row of value v beats a random opponent's row in the same place.

The solver (`scoring.arrange`) needs, for each row position, the distribution of the row an
opponent lays there. That distribution is measured once by simulation and shipped as package data
(`scoring/data/winprob.npz`), one set per preset because the wheel and the points differ:

1. deal `n` random 13-card hands (52 cards, no jokers);
2. round 0: arrange each greedily (strongest tail, then middle, then head) -> row histograms;
3. round 1: arrange each with the solver using round 0's histograms -> the shipped histograms,
   i.e. the opponent modelled is a player who itself plays for expected score.

Histograms are stored over the evaluator's rule-independent row classes (`fasteval` key sum and
flush flag), sparse: the classes seen and their counts. So a table that overrides an option (the
wheel, row points, royalties) maps the same histogram onto its own value order and points.
Rebuild with ``python -m scoring.winprob --build`` (or ``python scripts/build_tables.py``).

`model_for(rules)` turns the histograms into per-value arrays on the evaluator's scale:
P(win), P(lose), the points this row earns when it wins (`row_points` or `row_values`), the
expected points an opponent's better row takes, and the royalties either way. Limits: the opponent
is one random hand from a 52-card deck arranged as above -- no jokers, no specials, no fouls -- and
ties are counted as ties (the natural-wins and suit tie-breaks are ignored).
"""

from __future__ import annotations

import argparse
import importlib
import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from scoring import fasteval
from scoring.categories import ROWS, Category
from scoring.rules import PRESETS, RoyaltyMode, RuleSet

DATA = Path(__file__).with_name("data") / "winprob.npz"
DEFAULT_HANDS = 20000
DEFAULT_SEED = 20240613


@dataclass(frozen=True)
class Histograms:
    """Observed opponent rows for one preset: per row, class indices (into `Tables.three` for the
    head, `Tables.five` for the others) and counts; `scoop_rate` = P(a hand scoops another)."""

    idx: tuple[np.ndarray, np.ndarray, np.ndarray]
    count: tuple[np.ndarray, np.ndarray, np.ndarray]
    scoop_rate: float


@dataclass(frozen=True)
class RowModel:
    """Per-value arrays for one table's rules (index = value on the evaluator's scale), per row.

    `base[r][v]`: expected net points of row r with value v against one opponent before any scoop
    (row points won minus lost, plus royalties either way); `win`, `lose`: probabilities; `points`:
    row points this row earns when it wins; `taken[r][v]`: expected row points an opponent's row
    wins from it (P(opp > v) times what the opponent's row earns)."""

    base: tuple[np.ndarray, np.ndarray, np.ndarray]
    win: tuple[np.ndarray, np.ndarray, np.ndarray]
    lose: tuple[np.ndarray, np.ndarray, np.ndarray]
    points: tuple[np.ndarray, np.ndarray, np.ndarray]
    taken: tuple[np.ndarray, np.ndarray, np.ndarray]
    scoop_rate: float


def _histogram_values(h: Histograms, row: int, tables: fasteval.Tables) -> np.ndarray:
    """Probability of each value on the scale for an opponent's row `row`."""
    table = tables.three if row == 0 else tables.five
    values = table[h.idx[row]]
    p = np.bincount(values, weights=h.count[row], minlength=tables.size).astype(np.float64)
    return p / p.sum()


def build_model(rules: RuleSet, h: Histograms) -> RowModel:
    """The per-value arrays for `rules` from opponent histograms `h` (vectorised over the scale)."""
    tables = fasteval.tables_for(rules)
    cats = tables.category
    base, win, lose, points, taken = [], [], [], [], []
    for r, row in enumerate(ROWS):
        p = _histogram_values(h, r, tables)
        below = np.concatenate(([0.0], np.cumsum(p)[:-1]))
        above = 1.0 - below - p
        pts = np.array([rules.row_win_points(row, Category(c)) for c in range(10)], dtype=np.float64)[cats]
        roy_win = np.zeros(tables.size)
        roy_always = np.zeros(tables.size)
        for roy in rules.royalties:
            hit = np.array([roy.applies_to(row, Category(c)) for c in range(10)])[cats] * float(roy.points)
            if roy.mode == RoyaltyMode.ALWAYS:
                roy_always += hit
            else:
                roy_win += hit
        # expected over opponent rows strictly above v: reverse cumulative sums, excluding v itself
        def above_sum(x: np.ndarray, p=p) -> np.ndarray:
            c = np.cumsum((p * x)[::-1])[::-1]
            return np.concatenate((c[1:], [0.0]))

        tk = above_sum(pts)
        b = (pts + roy_win) * below - tk - above_sum(roy_win) + roy_always - float(p @ roy_always)
        for lst, arr in ((base, b), (win, below), (lose, above), (points, pts), (taken, tk)):
            arr.setflags(write=False)
            lst.append(arr)
    return RowModel(tuple(base), tuple(win), tuple(lose), tuple(points), tuple(taken), h.scoop_rate)


@lru_cache(maxsize=1)
def load_histograms(path: str = str(DATA)) -> dict[str, Histograms]:
    """The shipped histograms, one per preset name."""
    out: dict[str, Histograms] = {}
    with np.load(path) as z:
        for name in PRESETS:
            if f"{name}_head_idx" not in z:
                continue
            out[name] = Histograms(
                tuple(z[f"{name}_{row}_idx"] for row in ROWS),
                tuple(z[f"{name}_{row}_count"] for row in ROWS),
                float(z[f"{name}_scoop_rate"]),
            )
    return out


def histograms_for(rules: RuleSet) -> Histograms:
    """The preset's own histograms, or for a custom rule set those of a preset with the same wheel."""
    hists = load_histograms()
    if rules.name in hists:
        return hists[rules.name]
    for name, ps in PRESETS.items():
        if ps.wheel == rules.wheel and name in hists:
            return hists[name]
    return next(iter(hists.values()))


@lru_cache(maxsize=32)
def model_for(rules: RuleSet) -> RowModel:
    """The row model for a table's rules (cached: RuleSet is frozen and hashable)."""
    return build_model(rules, histograms_for(rules))


# ------------------------------------------------------------------ building the shipped tables


def _deal(rng: np.random.Generator, n: int) -> np.ndarray:
    """n random 13-card hands as sorted card codes (52-card deck)."""
    return np.sort(np.argsort(rng.random((n, 52)), axis=1)[:, :13], axis=1).astype(np.uint8)


def _histograms(rows: np.ndarray, tables_class: np.ndarray) -> Histograms:
    """From an (n, 3) array of row classes and a per-pair scoop flag array."""
    idx, cnt = [], []
    for r in range(3):
        u, c = np.unique(rows[:, r], return_counts=True)
        idx.append(u.astype(np.int32))
        cnt.append(c.astype(np.int32))
    return Histograms(tuple(idx), tuple(cnt), float(tables_class.mean()))


def simulate(rules: RuleSet, n: int, seed: int, rounds: int = 2, log=print) -> Histograms:
    """Histograms of the rows players lay out (see the module docstring)."""
    # deferred (the solver imports this module), and by module path: `scoring.arrange` may be the function
    solver = importlib.import_module("scoring.arrange")

    tables = fasteval.tables_for(rules)
    hands = _deal(np.random.default_rng(seed), n)
    hist: Histograms | None = None
    for rnd in range(rounds):
        t0 = time.perf_counter()
        model = None if hist is None else build_model(rules, hist)
        classes = np.empty((n, 3), dtype=np.int64)
        values = np.empty((n, 3), dtype=np.int64)
        for i in range(n):
            split = solver.best_split(hands[i], rules, model)
            classes[i], values[i] = solver.split_classes(hands[i], split), solver.split_values(
                hands[i], split, tables)
        # scoop rate: hand i against hand i+1 (disjoint deals are not needed for row classes)
        a, b = values[0::2], values[1::2]
        k = min(len(a), len(b))
        scoops = np.concatenate([(a[:k] > b[:k]).all(1), (b[:k] > a[:k]).all(1)])
        hist = _histograms(classes, scoops)
        log(f"  {rules.name} round {rnd}: {n} hands in {time.perf_counter() - t0:.1f}s, "
            f"scoop rate {hist.scoop_rate:.3f}")
    assert hist is not None
    return hist


def build(n: int = DEFAULT_HANDS, seed: int = DEFAULT_SEED, path: Path = DATA, log=print) -> Path:
    """Simulate every preset and write the compressed histograms to `path`."""
    arrays: dict[str, np.ndarray] = {}
    for k, (name, rules) in enumerate(PRESETS.items()):
        h = simulate(rules, n, seed + k, log=log)
        for r, row in enumerate(ROWS):
            arrays[f"{name}_{row}_idx"] = h.idx[r]
            arrays[f"{name}_{row}_count"] = h.count[r]
        arrays[f"{name}_scoop_rate"] = np.array(h.scoop_rate)
    arrays["meta_hands"] = np.array(n)
    arrays["meta_seed"] = np.array(seed)
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(path, **arrays)
    load_histograms.cache_clear()
    model_for.cache_clear()
    log(f"wrote {path} ({path.stat().st_size / 1024:.0f} KiB)")
    return path


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m scoring.winprob", description=__doc__.split("\n")[0])
    p.add_argument("--build", action="store_true", help="simulate and write scoring/data/winprob.npz")
    p.add_argument("--hands", type=int, default=DEFAULT_HANDS, help="hands dealt per preset")
    p.add_argument("--seed", type=int, default=DEFAULT_SEED)
    p.add_argument("--out", type=Path, default=DATA)
    args = p.parse_args(argv)
    if args.build:
        build(args.hands, args.seed, args.out)
        return 0
    for name, h in load_histograms().items():
        print(name, "scoop rate", round(h.scoop_rate, 3), "classes", [len(i) for i in h.idx])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
