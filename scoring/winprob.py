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

`model_given(rules, codes)` is the same for particular hands: each sampled opponent weighed by how
likely its ranks are from the cards those hands leave (`removal_weights`), so that the solver
scores a hand against the opponents it can actually meet.

Limits: the opponent is a hand from a 52-card deck -- no jokers, no specials, no fouls; suits are
not re-weighted -- and equal rows tie (the natural-wins and suit tie-breaks are ignored).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import combinations_with_replacement
from math import comb
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
    `Tables.three`; middle, tail: into `Tables.five`); `scoop_rate` = P(a hand scoops another);
    `codes` (n, 13): the hands' cards where kept (then they are weighed by suit too)."""

    rows: np.ndarray
    scoop_rate: float
    codes: np.ndarray | None = None


@dataclass(frozen=True)
class RowModel:
    """A table's opponent model; per-value arrays are indexed by the value on the evaluator's scale.

    `base[r][v]`: expected net points of row r with value v against one opponent before any scoop
    (row points won minus lost, plus royalties either way); `win`, `lose`: probabilities;
    `points`: row points this row earns when it wins; `taken[r][v]`: expected row points an
    opponent's row wins from it; `roy_win` / `roy_always`: its royalties by mode.
    `opp` (m, 3): sampled opponents' row values; `opp_scoop_points` (m,): the row points each
    would score winning all three rows (before the scoop factor).

    A model given B players' hands (`model_given`) has `base`, `win`, `lose` and `taken` as
    (B, size) arrays, one row per hand, and `opp_weight` (B, m): how much each sampled opponent
    counts for that hand (mean 1); the unconditional model has (size,) arrays and no weights."""

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
    opp_weight: np.ndarray | None = None
    prior: RowModel | None = None
    """For a model given hands: the unconditional model it re-weights (the solver's fast stage
    ranks with it; only the finalists are scored per hand)."""


def sample_values(sample: Sample, tables: fasteval.Tables) -> np.ndarray:
    """The sample's rows as values on `tables`' scale, (n, 3)."""
    r = sample.rows
    cols = [tables.three[r[:, 0]], tables.five[r[:, 1]], tables.five[r[:, 2]]]
    return np.stack(cols, axis=1).astype(np.intp)


@lru_cache(maxsize=32)
def _by_category(rules: RuleSet, row: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Row points, `on_win` royalties and `always` royalties of every value, from its category."""
    cats = fasteval.tables_for(rules).category
    pts = np.array([rules.row_win_points(row, Category(c)) for c in range(10)], dtype=np.float64)
    win = np.zeros(10)
    always = np.zeros(10)
    for roy in rules.royalties:
        hit = np.array([roy.applies_to(row, Category(c)) for c in range(10)]) * float(roy.points)
        if roy.mode == RoyaltyMode.ALWAYS:
            always += hit
        else:
            win += hit
    out = pts[cats], win[cats], always[cats]
    for a in out:
        a.setflags(write=False)
    return out


def _above_sum(p: np.ndarray, x: np.ndarray) -> np.ndarray:
    """sum over u > v of p[..., u] * x[u], for every v (along the last axis)."""
    c = np.cumsum((p * x)[..., ::-1], axis=-1)[..., ::-1]
    return np.concatenate((c[..., 1:], np.zeros(p.shape[:-1] + (1,))), axis=-1)


def _histograms(values: np.ndarray, size: int, weights: np.ndarray | None) -> np.ndarray:
    """Normalised histogram of `values` (n,) over the value scale: (size,), or (B, size) with one
    row per row of `weights` (B, n)."""
    if weights is None:
        p = np.bincount(values, minlength=size).astype(np.float64)
        return p / p.sum()
    n_hands = len(weights)
    idx = (np.arange(n_hands)[:, None] * size + values[None, :]).ravel()
    p = np.bincount(idx, weights=weights.ravel(), minlength=n_hands * size).reshape(n_hands, size)
    return p / p.sum(axis=1, keepdims=True)


def build_model(rules: RuleSet, sample: Sample, exact: int = EXACT_OPPONENTS,
                weights: np.ndarray | None = None) -> RowModel:
    """The model for `rules` from a simulated `sample` (vectorised over the value scale); with
    `weights` (B, n), one model per row of weights (see `RowModel`)."""
    tables = fasteval.tables_for(rules)
    values = sample_values(sample, tables)
    names = ("base", "win", "lose", "points", "taken", "roy_win", "roy_always")
    arrays: dict[str, list[np.ndarray]] = {k: [] for k in names}
    for r, row in enumerate(ROWS):
        p = _histograms(values[:, r], tables.size, weights)
        below = np.cumsum(p, axis=-1) - p
        above = np.clip(1.0 - below - p, 0.0, 1.0)
        pts, roy_win, roy_always = _by_category(rules, row)
        taken = _above_sum(p, pts)
        base = ((pts + roy_win) * below - taken - _above_sum(p, roy_win) + roy_always
                - (p * roy_always).sum(-1, keepdims=True))
        for k, arr in (("base", base), ("win", below), ("lose", above), ("points", pts), ("taken", taken),
                       ("roy_win", roy_win), ("roy_always", roy_always)):
            arrays[k].append(arr)
    opp = np.ascontiguousarray(values[:exact])
    opp_scoop_points = sum(arrays["points"][r][opp[:, r]] for r in range(3))
    opp_weight = None
    if weights is not None:
        opp_weight = weights[:, :exact] / weights[:, :exact].mean(axis=1, keepdims=True)
    return RowModel(**{k: tuple(v) for k, v in arrays.items()}, opp=opp,
                    opp_scoop_points=np.asarray(opp_scoop_points, dtype=np.float64),
                    scoop_rate=sample.scoop_rate, opp_weight=opp_weight)


@lru_cache(maxsize=2)
def load_samples(path: str = str(DATA), kind: str = "") -> dict[str, Sample]:
    """The shipped samples, one per preset name: the ones the solver chooses with, or with
    `kind="value_"` the ones its answers are valued on (the solver's own play, with their cards)."""
    out: dict[str, Sample] = {}
    with np.load(path) as z:
        for name in PRESETS:
            key = f"{name}_{kind}"
            if f"{key}rows" in z:
                codes = z[f"{key}codes"] if f"{key}codes" in z else None
                out[name] = Sample(z[f"{key}rows"].astype(np.intp), float(z[f"{key}scoop_rate"]), codes)
    return out


def _name_for(rules: RuleSet) -> str:
    samples = load_samples()
    if rules.name in samples:
        return rules.name
    for name, ps in PRESETS.items():
        if ps.wheel == rules.wheel and name in samples:
            return name
    return next(iter(samples))


def sample_for(rules: RuleSet) -> Sample:
    """The preset's own sample, or for a custom rule set that of a preset with the same wheel."""
    return load_samples()[_name_for(rules)]


def value_sample_for(rules: RuleSet) -> Sample | None:
    """The sample the solver's answers are valued on: the value sample of the preset whose
    sample `sample_for` gives, None where that preset has none shipped."""
    return load_samples(kind="value_").get(_name_for(rules))


@lru_cache(maxsize=32)
def model_for(rules: RuleSet) -> RowModel:
    """The opponent model for a table's rules (cached: RuleSet is frozen and hashable)."""
    return build_model(rules, sample_for(rules))


# ------------------------------------------------------------------ the cards the player holds


@lru_cache(maxsize=1)
def _multisets() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Key sums (sorted) and rank counts (k, 13) of every 3- and every 5-card rank multiset."""
    out = []
    for size in (3, 5):
        ms = list(combinations_with_replacement(range(13), size))
        keys = np.array([sum(fasteval.RANK_KEYS[r] for r in m) for m in ms])
        counts = np.zeros((len(ms), 13), dtype=np.int8)
        for i, m in enumerate(ms):
            for r in m:
                counts[i, r] += 1
        order = np.argsort(keys)
        out += [keys[order], counts[order]]
    return out[0], out[1], out[2], out[3]


def rank_counts(sample: Sample) -> np.ndarray:
    """How many cards of each rank (n, 13) each sampled hand holds (its three rows together)."""
    k3, c3, k5, c5 = _multisets()
    rows = sample.rows
    out = c3[np.searchsorted(k3, rows[:, 0])].astype(np.intp)
    for r in (1, 2):
        out += c5[np.searchsorted(k5, rows[:, r] % fasteval.SPAN5)]
    return out


@lru_cache(maxsize=32)
def _sample_counts(rules: RuleSet) -> np.ndarray:
    return rank_counts(sample_for(rules))


def removal_weights(counts: np.ndarray, held: np.ndarray, copies: int = 4) -> np.ndarray:
    """How likely each sampled hand (`counts` (n, k) of each of k kinds of card: ranks, or suits)
    is, relative to a full deck, when the cards come from what B players do not hold (`held`
    (B, k) counts of the same kinds, `copies` of each kind in the deck): (B, n), mean 1 per row.

    Dealt from a deck without the held cards, a hand with c cards of a kind of which the player
    holds m is C(copies - m, c) / C(copies, c) times as likely (per kind, multiplied)."""
    m = np.clip(held, 0, copies).astype(np.intp)
    c = counts if counts.dtype == np.intp else counts.astype(np.intp)   # a hand holds <= copies of a kind
    ratio = np.zeros((copies + 1, copies + 1))
    for i in range(copies + 1):
        for j in range(copies + 1):
            ratio[i, j] = comb(copies - i, j) / comb(copies, j)
    w = np.ones((len(held), len(counts)))
    for b in range(len(held)):   # one 1-d lookup per kind: far cheaper than a broadcast fancy index
        rows = ratio[m[b]]
        for r in range(c.shape[1]):
            w[b] *= rows[r][c[:, r]]
    total = w.mean(axis=1, keepdims=True)
    return np.where(total > 0, w / np.where(total > 0, total, 1.0), 1.0)


def suit_counts(codes: np.ndarray) -> np.ndarray:
    """How many natural cards of each suit (B, 4) hands given as codes (B, 13) hold (wild cards
    count for none)."""
    c = np.atleast_2d(codes).astype(np.intp)
    natural = (c >> 2) != fasteval.WILD
    return np.stack([((c & 3) == su) & natural for su in range(4)], axis=2).sum(1)


def hand_weights(rules: RuleSet, counts: np.ndarray, codes: np.ndarray,
                 suits: np.ndarray | None = None) -> np.ndarray:
    """How much each sampled opponent counts (B, n) for each of B hands (codes (B, 13)), mean 1:
    by the ranks those hands leave (`removal_weights` of the sample's rank `counts`), and, where
    the sample keeps its cards (`suits`: their `suit_counts`) and the deck has four suits of 13,
    by the suits they leave too (holding seven hearts, an opponent's flush is less often hearts
    and more often another suit). The two are multiplied, as if independent."""
    w = removal_weights(counts, held_counts(codes), 5 if rules.extra_suit else 4)
    if suits is not None and not rules.extra_suit:
        w = w * removal_weights(suits, suit_counts(codes), 13)
        w /= w.mean(axis=1, keepdims=True)
    return w


def held_counts(codes: np.ndarray) -> np.ndarray:
    """Rank counts (B, 13) of the natural cards of hands given as codes (B, 13); wild cards count
    for no rank (the modelled opponents play without them)."""
    ranks = np.atleast_2d(codes).astype(np.intp) >> 2
    return np.stack([(ranks == r).sum(1) for r in range(13)], axis=1)


def model_given(rules: RuleSet, codes: np.ndarray, sample: Sample | None = None,
                prior: RowModel | None = None, counts: np.ndarray | None = None) -> RowModel:
    """The opponent model for each of B hands (codes (B, 13)): the shipped sample (or `sample`,
    with its model `prior` and `rank_counts` `counts`) re-weighted to the cards those hands leave
    for the opponents (`removal_weights`)."""
    if sample is None:
        sample, prior, counts = sample_for(rules), model_for(rules), _sample_counts(rules)
    prior = prior if prior is not None else build_model(rules, sample)
    counts = counts if counts is not None else rank_counts(sample)
    model = build_model(rules, sample, weights=hand_weights(rules, counts, codes))
    return replace(model, prior=prior)


@lru_cache(maxsize=32)
def _value_counts(rules: RuleSet) -> tuple[Sample, np.ndarray, np.ndarray | None] | None:
    sample = value_sample_for(rules)
    if sample is None:
        return None
    suits = None if sample.codes is None else suit_counts(sample.codes)
    return sample, rank_counts(sample), suits


def value_model_given(rules: RuleSet, codes: np.ndarray) -> RowModel:
    """The model the solver's answers are valued on, for each of B hands (codes (B, 13)): the
    value sample (`value_sample_for`: what the solver itself plays), weighed by the ranks and
    suits the hands leave, every sampled opponent in its scoop terms (it has no `prior`: it
    scores a few answers, it does not rank all splits); where the preset has none shipped,
    `model_given` (the sample the solver chooses with)."""
    found = _value_counts(rules)
    if found is None:
        return model_given(rules, codes)
    sample, counts, suits = found
    weights = hand_weights(rules, counts, codes, suits)
    return build_model(rules, sample, exact=len(sample.rows), weights=weights)
