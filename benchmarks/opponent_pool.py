"""A pool of random hands arranged by the solver: heads-up opponents for many hands at once.

An opponent heads-up is 13 cards dealt at random from the 39 a hand leaves. A random hand from
the full deck that happens to share no card with the hand is exactly that (uniform over the
13-card subsets of the other 39 cards), and how the solver lays an opponent out depends on the
opponent's cards alone. So one pool of hands arranged once serves every hand measured: each
hand's opponents are the pool's hands disjoint from it (about 1.3% of the pool). Arranging is
what costs (milliseconds a hand); scoring splits against a pool is cheap, so a pool of P hands
measures any number of hands against about P / 78 opponents each.

Only heads-up: the opponents at a bigger table must be disjoint from each other too, which a
pool almost never offers.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from tqdm import tqdm

from scoring import fasteval
from scoring.expectation import best_splits
from scoring.rules import RuleSet
from scoring.splits import classes_of, score_splits
from scoring.winprob import DATA, Sample, model_given, sample_values

BATCH = 16
"""Hands arranged per numpy call."""


@dataclass(frozen=True)
class Pool:
    """`codes` (n, 13) sorted card codes; `masks` (n,) the cards as 52-bit sets; `classes` (n, 3)
    the rule-independent row classes of the solver's layout of each hand (`scoring.winprob.Sample`
    rows) and `values` (n, 3) the same on the rules' scale."""

    codes: np.ndarray
    masks: np.ndarray
    classes: np.ndarray
    values: np.ndarray

    def disjoint(self, hand: np.ndarray) -> np.ndarray:
        """Indices of the pool's hands that share no card with `hand` (card codes)."""
        return np.flatnonzero((self.masks & card_mask(hand)) == 0)


def card_mask(codes: np.ndarray) -> np.ndarray:
    """The cards of hands (…, 13) as 52-bit sets (…,)."""
    bits = np.left_shift(np.uint64(1), np.asarray(codes, dtype=np.uint64))
    return np.bitwise_or.reduce(bits, axis=-1)


def deal(rng: np.random.Generator, n: int) -> np.ndarray:
    """n random 13-card hands from a 52-card deck, as sorted codes."""
    return np.sort(np.argsort(rng.random((n, 52)), axis=1)[:, :13], axis=1).astype(np.uint8)


def arranged_classes(codes: np.ndarray, rules: RuleSet, opponents: int,
                     progress: str | None = None) -> np.ndarray:
    """Row classes (n, 3) of the solver's layout of each hand, told `opponents` others sit."""
    tables = fasteval.tables_for(rules)
    out = np.empty((len(codes), 3), dtype=np.int32)
    for lo in tqdm(range(0, len(codes), BATCH), desc=progress, leave=False, disable=progress is None):
        batch = codes[lo:lo + BATCH]
        s = score_splits(batch, tables, rules.strict_order)
        out[lo:lo + BATCH] = classes_of(batch, best_splits(s, model_given(rules, batch), rules, opponents), s)
    return out


def _pool(rules: RuleSet, codes: np.ndarray, classes: np.ndarray) -> Pool:
    values = sample_values(Sample(classes.astype(np.intp), 0.0), fasteval.tables_for(rules))
    return Pool(codes, card_mask(codes), classes, values)


def solver_key() -> str:
    """What a pool's layouts depend on besides its rules: the shipped samples and the solver's code."""
    h = hashlib.sha256(DATA.read_bytes())
    for name in ("expectation.py", "splits.py", "winprob.py", "fasteval.py"):
        h.update((DATA.parent.parent / name).read_bytes())
    return h.hexdigest()[:16]


def build(rules: RuleSet, n: int, seed: int, opponents: int = 1) -> Pool:
    codes = deal(np.random.default_rng(seed), n)
    label = f"pool {rules.name} ({n} hands)"
    return _pool(rules, codes, arranged_classes(codes, rules, opponents, progress=label))


def load_or_build(rules: RuleSet, n: int, seed: int, cache: Path | None, opponents: int = 1) -> Pool:
    """The pool for (rules, n, seed), from `cache` (a folder) when it was built by this same solver."""
    path = None
    if cache is not None:
        path = cache / f"pool-{rules.name}-{n}-{seed}-{opponents}-{solver_key()}.npz"
        if path.exists():
            with np.load(path) as z:
                return _pool(rules, z["codes"], z["classes"])
    pool = build(rules, n, seed, opponents)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(path, codes=pool.codes, classes=pool.classes)
    return pool
