"""Build the solver's opponent samples by self-play, to a fixed point (`scoring/data/winprob.npz`).

The solver plays for expected score against opponents who arrange with the solver itself, so the
sample of opponents' rows it is scored against must be what the solver lays out when it uses that
same sample. That is a fixed point, found by repeating, per preset:

1. deal `hands` random 13-card hands (52 cards, no jokers), the same hands every round;
2. round 0: arrange each greedily (strongest tail, then middle, then head);
3. round r: arrange each with the full solver (`scoring.expectation.best_splits`: fast score,
   then the exact re-scoring) using the model of round r-1's sample; the new sample takes these
   layouts for a random half of the hands and keeps the last sample's for the other half (plain
   best replies overshoot: against strong heads the solver weakens its own, and back again);
4. stop when the model stops moving: when no row's win chance, averaged over the sample's rows,
   moves by `tol` or more from one round's model to the next (or after `max_rounds`); the last
   round's layouts are the sample shipped. (Many hands keep swapping between near-equal layouts,
   so "no layout changes" would never be reached; the model is what the solver sees.)

The solver is given `OPPONENTS` others at the table (the CLI's default), so a preset with a home
run has it in the sample's layouts. A round costs what the solver does, about 20 ms per hand on
one free core (more on a busy machine): 20,000 hands and three to five rounds are 20-35 minutes
per preset; `--resume` starts from the samples already shipped and saves the first rounds.

The sample the solver chooses with is one thing; what its answers are worth is another: its
opponents play the solver, and its layouts against that sample are not exactly the sample's (the
fixed point is only approached, and half of the last round's layouts are the round before's). So a
second sample is shipped per preset, the one the expected score is valued on: `value_hands`
fresh hands (more than the first: the value of one answer is an average over them, and its noise is
what the printed score carries) arranged by the solver with the final first sample, with their
cards (so the solver can weigh them by the suits a hand leaves, too). `--value-only` rebuilds just
these from the samples already shipped.

    python scripts/build_tables.py [--hands 20000] [--seed 20240613] [--tol 0.003] [--resume]
        [--value-hands 20000] [--value-only]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
from tqdm import tqdm

from scoring import fasteval
from scoring.expectation import best_splits
from scoring.rules import PRESETS, RuleSet
from scoring.splits import classes_of, score_splits
from scoring.winprob import (
    DATA,
    Sample,
    build_model,
    load_samples,
    model_for,
    model_given,
    rank_counts,
    sample_values,
)

DEFAULT_HANDS = 20000
DEFAULT_SEED = 20240613
DEFAULT_TOL = 0.003
MAX_ROUNDS = 8
MIX = 0.5
"""Share of hands that keep the last round's layout (damping)."""
OPPONENTS = 3
BATCH = 16
"""Hands arranged per numpy call."""
DEFAULT_VALUE_HANDS = 20000
VALUE_SEED_OFFSET = 7919
"""The value sample's deal is seeded apart from the first sample's (fresh hands)."""


def deal(rng: np.random.Generator, n: int) -> np.ndarray:
    """n random 13-card hands as sorted card codes (52-card deck)."""
    return np.sort(np.argsort(rng.random((n, 52)), axis=1)[:, :13], axis=1).astype(np.uint8)


def arrange_all(hands: np.ndarray, rules: RuleSet, sample: Sample | None, opponents: int = OPPONENTS,
                progress: str | None = None) -> np.ndarray:
    """Row classes (n, 3) of the solver's layout of every hand: greedy when `sample` is None,
    else the solver's with the model of `sample` (re-weighted for each hand's cards, as the
    solver does)."""
    tables = fasteval.tables_for(rules)
    counts = None if sample is None else rank_counts(sample)
    prior = None if sample is None else build_model(rules, sample)
    out = np.empty((len(hands), 3), dtype=np.int32)
    steps = range(0, len(hands), BATCH)
    for lo in tqdm(steps, desc=progress, leave=False, disable=progress is None):
        codes = hands[lo:lo + BATCH]
        model = None if sample is None else model_given(rules, codes, sample, prior, counts)
        s = score_splits(codes, tables, rules.strict_order)
        out[lo:lo + BATCH] = classes_of(codes, best_splits(s, model, rules, opponents), s)
    return out


def scoop_rate(classes: np.ndarray, rules: RuleSet) -> float:
    """How often one hand of the sample scoops another (the hands paired off in order)."""
    values = sample_values(Sample(classes, 0.0), fasteval.tables_for(rules))
    a, b = values[0::2], values[1::2]
    k = min(len(a), len(b))
    return float(np.concatenate([(a[:k] > b[:k]).all(1), (b[:k] > a[:k]).all(1)]).mean())


def model_shift(new: Sample, old: Sample, rules: RuleSet) -> float:
    """How far the model moved: the largest, over the rows, of the mean change of P(win) at the
    new sample's rows."""
    values = sample_values(new, fasteval.tables_for(rules))
    a, b = build_model(rules, new), build_model(rules, old)
    return max(float(np.abs(a.win[r][values[:, r]] - b.win[r][values[:, r]]).mean()) for r in range(3))


def simulate(rules: RuleSet, n: int, seed: int, tol: float = DEFAULT_TOL, max_rounds: int = MAX_ROUNDS,
             log: Callable[[str], None] = print, progress: bool = True, start: Sample | None = None,
             each_round: Callable[[Sample], None] | None = None) -> Sample:
    """The fixed-point sample for `rules` (see the module docstring); deterministic for a seed.
    `start`: a sample to take round 0's model from instead of playing greedy (a sample near the
    fixed point, e.g. the shipped one, saves rounds). `each_round` gets every round's sample."""
    rng = np.random.default_rng(seed)
    hands = deal(rng, n)
    tables = fasteval.tables_for(rules)
    sample = start
    for rnd in range(max_rounds + 1):
        t0 = time.perf_counter()
        label = f"{rules.name} round {rnd}" if progress else None
        classes = arrange_all(hands, rules, sample, progress=label)
        if sample is not None and sample is not start:
            keep = rng.random(n) < MIX
            classes = np.where(keep[:, None], sample.rows, classes)
        new = Sample(classes, scoop_rate(classes, rules))
        shift = 1.0 if sample is None else model_shift(new, sample, rules)
        changed = 1.0 if sample is None or sample is start else float((classes != sample.rows).any(1).mean())
        sample = new
        pair_heads = float((tables.category[tables.three[classes[:, 0]]] >= fasteval.PAIR).mean())
        log(f"  {rules.name} round {rnd}: {n} hands in {time.perf_counter() - t0:.0f}s, "
            f"model shift {shift:.4f}, {changed:.1%} of layouts changed, heads with a pair or better "
            f"{pair_heads:.1%}, scoop rate {sample.scoop_rate:.3f}")
        if each_round is not None:
            each_round(sample)
        if shift < tol:
            break
    assert sample is not None
    return sample


def value_sample(rules: RuleSet, sample: Sample, n: int, seed: int, progress: bool = True) -> Sample:
    """The solver's own layouts of n fresh hands, choosing with `sample`, with the hands' cards."""
    hands = deal(np.random.default_rng(seed), n)
    classes = arrange_all(hands, rules, sample, progress=f"{rules.name} value sample" if progress else None)
    return Sample(classes, scoop_rate(classes, rules), codes=hands)


def build(n: int = DEFAULT_HANDS, seed: int = DEFAULT_SEED, path: Path = DATA, tol: float = DEFAULT_TOL,
          names: list[str] | None = None, resume: bool = False, max_rounds: int = MAX_ROUNDS,
          log: Callable[[str], None] = print, value_hands: int = DEFAULT_VALUE_HANDS,
          value_only: bool = False) -> Path:
    """Simulate the presets `names` (default: every one of `scoring.rules.PRESETS`) and write their
    samples to `path`, keeping the other presets' samples already there; then each preset's value
    sample (`value_sample`). `resume`: start each preset from its sample in `path`, where it has
    one, instead of from greedy play; `value_only`: keep the first samples in `path` as they are."""
    arrays: dict[str, np.ndarray] = {}
    if path.exists():
        with np.load(path) as z:
            arrays = {k: z[k] for k in z.files}
    if not value_only:
        arrays.update(meta_hands=np.array(n), meta_seed=np.array(seed))
    for name in names or list(PRESETS):
        t0 = time.perf_counter()
        start = None
        if (resume or value_only) and f"{name}_rows" in arrays:
            start = Sample(arrays[f"{name}_rows"].astype(np.intp), float(arrays[f"{name}_scoop_rate"]))

        def save(s: Sample, name: str = name) -> None:
            arrays[f"{name}_rows"] = s.rows.astype(np.int32)
            arrays[f"{name}_scoop_rate"] = np.array(s.scoop_rate)
            _write(path, arrays)

        index = list(PRESETS).index(name)
        if value_only and start is not None:
            final = start
        else:
            final = simulate(PRESETS[name], n, seed + index, tol=tol, max_rounds=max_rounds,
                             log=log, start=start, each_round=save)
        played = value_sample(PRESETS[name], final, value_hands, seed + VALUE_SEED_OFFSET + index)
        arrays[f"{name}_value_rows"] = played.rows.astype(np.int32)
        arrays[f"{name}_value_codes"] = np.asarray(played.codes, dtype=np.uint8)
        arrays[f"{name}_value_scoop_rate"] = np.array(played.scoop_rate)
        _write(path, arrays)
        log(f"{name}: {time.perf_counter() - t0:.0f}s, wrote {path} ({path.stat().st_size / 1024:.0f} KiB)")
    load_samples.cache_clear()
    model_for.cache_clear()
    return path


def _write(path: Path, arrays: dict[str, np.ndarray]) -> None:
    """Write the samples (after every round, so an interrupted build keeps its last round)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp.npz")
    np.savez_compressed(tmp, **arrays)
    tmp.replace(path)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python scripts/build_tables.py", description=__doc__.split("\n")[0])
    p.add_argument("--hands", type=int, default=DEFAULT_HANDS, help="hands dealt per preset")
    p.add_argument("--seed", type=int, default=DEFAULT_SEED)
    p.add_argument("--tol", type=float, default=DEFAULT_TOL,
                   help="stop when no row's mean win chance moves by this much in a round")
    p.add_argument("--presets", default=",".join(PRESETS), help="comma-separated presets (default: all)")
    p.add_argument("--max-rounds", type=int, default=MAX_ROUNDS, help="rounds after the first at most")
    p.add_argument("--resume", action="store_true",
                   help="start from the samples already in --out instead of from greedy play")
    p.add_argument("--value-hands", type=int, default=DEFAULT_VALUE_HANDS,
                   help="hands in each preset's value sample (the solver's own play)")
    p.add_argument("--value-only", action="store_true",
                   help="rebuild only the value samples, from the first samples already in --out")
    p.add_argument("--out", type=Path, default=DATA)
    args = p.parse_args(argv)
    names = [x for x in args.presets.split(",") if x]
    unknown = [x for x in names if x not in PRESETS]
    if unknown:
        p.error(f"unknown preset(s) {', '.join(unknown)}: choose from {', '.join(PRESETS)}")
    build(args.hands, args.seed, args.out, args.tol, names, args.resume, args.max_rounds,
          value_hands=args.value_hands, value_only=args.value_only)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
