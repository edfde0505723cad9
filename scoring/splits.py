"""Every head/middle/tail split of 13 cards, valued in bulk: the search space of the solver.

All C(13,3) x C(10,5) = 72,072 splits are considered. The two 5-card rows of a split are an
unordered pair, and only "weaker one in the middle" can be legal, so that is 36,036 candidates.
All 1,287 five-card subsets and 286 heads of a hand are valued in one `fasteval` call each, then
every candidate's row values and legality are a handful of numpy gathers (no Python per split).
Everything here takes a batch of hands, (B, 13) card codes, so that many hands (the solver's own
opponents, the benchmark's tables) are arranged in a few numpy calls.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

import numpy as np

from scoring import fasteval
from scoring.cards import Card
from scoring.rules import RuleSet

Split = tuple[np.ndarray, np.ndarray, np.ndarray]
"""Positions (into the 13 cards) of head, middle and tail."""
N_SPLITS = 36_036


@dataclass(frozen=True)
class Index:
    """The split index: `head[k]`, `a[k]`, `b[k]` are split k's head (into `c3`) and its two 5-card
    rows (into `c5`, a < b); which of a, b is the middle depends on the cards."""

    c5: np.ndarray      # (1287, 5) positions
    c3: np.ndarray      # (286, 3) positions
    head: np.ndarray    # (36036,) index into c3
    a: np.ndarray       # (36036,) index into c5, the first 5-card row
    b: np.ndarray       # (36036,) index into c5, the other one (a < b)


@lru_cache(maxsize=1)
def index() -> Index:
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
    return Index(c5, c3, head, a[keep], b[keep])


@dataclass(frozen=True)
class Scored:
    """Row values (evaluator scale) of every split of B hands, each (B, 36036): head `h`, middle
    `m`, tail `t`; `mid_is_a` says which 5-card subset is the middle; `legal` the rows in order."""

    h: np.ndarray
    m: np.ndarray
    t: np.ndarray
    mid_is_a: np.ndarray
    legal: np.ndarray

    def keys(self, k: np.ndarray) -> np.ndarray:
        """(head, middle, tail) values of splits `k` (B, n) as one integer each, to find equal layouts."""
        pick = [np.take_along_axis(x, k, axis=1).astype(np.int64) for x in (self.h, self.m, self.t)]
        return (pick[0] << 32) | (pick[1] << 16) | pick[2]

    def values(self, k: np.ndarray) -> np.ndarray:
        """Row values (B, n, 3) of splits `k` (B, n)."""
        return np.stack([np.take_along_axis(x, k, axis=1) for x in (self.h, self.m, self.t)], axis=2)


def score_splits(codes: np.ndarray, tables: fasteval.Tables, strict: bool) -> Scored:
    """Every split of each hand in `codes` (B, 13) valued and checked for order."""
    codes = np.atleast_2d(codes)
    n = len(codes)
    ix = index()
    v5 = tables.eval5(codes[:, ix.c5].reshape(-1, 5)).reshape(n, -1)
    v3 = tables.eval3(codes[:, ix.c3].reshape(-1, 3)).reshape(n, -1)
    va, vb = v5[:, ix.a], v5[:, ix.b]
    mid_is_a = va <= vb
    m = np.minimum(va, vb).astype(np.intp)
    t = np.maximum(va, vb).astype(np.intp)
    h = v3[:, ix.head].astype(np.intp)
    legal = h < m  # a head never equals a 5-card row on the scale; "equal first cards" sorts below
    if strict:
        legal &= m < t
    return Scored(h, m, t, mid_is_a, legal)


def greedy_key(s: Scored) -> np.ndarray:
    """Lexicographic (tail, middle, head) as one integer, for the greedy baseline."""
    return (s.t.astype(np.int64) << 32) | (s.m.astype(np.int64) << 16) | s.h.astype(np.int64)


def greedy_splits(s: Scored) -> np.ndarray:
    """Per hand, the greedy split (strongest tail, then middle, then head; legal if any is)."""
    return np.argmax(np.where(s.legal, greedy_key(s), -1), axis=1)


def positions(k: int, s: Scored, hand: int = 0) -> Split:
    """The card positions of split `k` of hand `hand`."""
    ix = index()
    a, b = ix.c5[ix.a[k]], ix.c5[ix.b[k]]
    mid, tail = (a, b) if s.mid_is_a[hand, k] else (b, a)
    return ix.c3[ix.head[k]], mid, tail


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


def classes_of(codes: np.ndarray, k: np.ndarray, s: Scored) -> np.ndarray:
    """Row classes (B, 3) of split `k[i]` of each hand i in `codes` (B, 13)."""
    return np.stack([split_classes(codes[i], positions(int(k[i]), s, i)) for i in range(len(k))])


def split_values(codes: np.ndarray, split: Split, tables: fasteval.Tables) -> np.ndarray:
    """Row values (evaluator scale) of a split."""
    return np.array([
        tables.eval3(codes[split[0]][None])[0], tables.eval5(codes[split[1]][None])[0],
        tables.eval5(codes[split[2]][None])[0],
    ])


def hand_codes(hand: Sequence[Card], rules: RuleSet) -> np.ndarray:
    """Card codes of a hand, its wild cards (jokers, `wild_rank`) as wild codes."""
    codes = fasteval.encode(hand)
    wild = np.array([rules.is_wild(c) for c in hand])
    codes[wild] = fasteval.WILD * 4
    return codes
