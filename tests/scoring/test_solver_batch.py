"""The solver's batch path, the self-play build and the import structure of `scoring`."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from benchmarks.arrange_quality import points_of, solver_layouts, table_points
from scoring import expectation, fasteval, selfplay, splits, winprob
from scoring.arrange import arrange
from scoring.cards import parse_cards
from scoring.categories import ROWS
from scoring.rules import PRESETS
from scoring.settlement import settle
from scoring.winprob import Sample, model_for, sample_values

SCORING = Path(__file__).resolve().parents[2] / "scoring"


def _cards(codes: np.ndarray) -> list[str]:
    return [fasteval.decode(c) for c in codes]


@pytest.mark.parametrize("name, opponents", [("luosong", 1), ("taiwan", 3)])
def test_batch_choice_is_arranges_choice(name, opponents):
    rules = PRESETS[name]
    hands = selfplay.deal(np.random.default_rng(3), 12)
    values, _ = solver_layouts(hands, rules, opponents)
    tables = fasteval.tables_for(rules)
    for codes, v in zip(hands, values, strict=True):
        a = arrange(_cards(codes), rules, top=1, opponents=opponents, specials=False)[0]
        assert [tables.value(list(getattr(a, r))) for r in ROWS] == v.tolist()


def test_finalists_are_distinct_legal_and_led_by_the_fast_best():
    rules = PRESETS["luosong"]
    hands = selfplay.deal(np.random.default_rng(4), 6)
    s = splits.score_splits(hands, fasteval.tables_for(rules), rules.strict_order)
    fast = np.where(s.legal, expectation.fast_expected(s, model_for(rules), rules, 3), -np.inf)
    cand = expectation.finalists(s, fast, 20)
    assert cand.shape == (6, 21)
    keys = s.keys(cand[:, :-1])
    for i in range(6):
        assert len(set(keys[i].tolist())) == 20
        assert s.legal[i, cand[i]].all()
        assert fast[i, cand[i, 0]] == fast[i].max()
        assert cand[i, -1] == splits.greedy_splits(s)[i]


def test_one_selfplay_round_is_the_solver_against_the_greedy_sample():
    """Round 1: the solver's reply to greedy play for a random half of the hands, greedy for the rest."""
    rules = PRESETS["taiwan"]
    quiet = lambda *a: None  # noqa: E731
    got = selfplay.simulate(rules, 64, seed=9, tol=1.0, log=quiet, progress=False)
    rng = np.random.default_rng(9)
    hands = selfplay.deal(rng, 64)
    keep = rng.random(64) < selfplay.MIX
    greedy = selfplay.arrange_all(hands, rules, None)
    reply = selfplay.arrange_all(hands, rules, Sample(greedy, selfplay.scoop_rate(greedy, rules)))
    assert (got.rows == np.where(keep[:, None], greedy, reply)).all()
    assert 0 < keep.sum() < 64 and not (reply == greedy).all()
    v = sample_values(got, fasteval.tables_for(rules))
    assert (v[:, 0] < v[:, 1]).all() and (v[:, 1] <= v[:, 2]).all()


def test_shipped_sample_is_what_the_solver_plays():
    """A fixed point: the solver, scored against the shipped sample, lays out heads like the
    sample's (pairs held back in the head as often), and far from greedy's."""
    rules = PRESETS["luosong"]
    t = fasteval.tables_for(rules)
    sample = selfplay.load_samples()["luosong"]
    hands = selfplay.deal(np.random.default_rng(11), 300)

    def pair_heads(classes: np.ndarray) -> float:
        return float((t.category[t.three[classes[:, 0]]] >= fasteval.PAIR).mean())

    solver = pair_heads(selfplay.arrange_all(hands, rules, sample))
    assert abs(solver - pair_heads(sample.rows)) < 0.08
    assert solver > pair_heads(selfplay.arrange_all(hands, rules, None)) + 0.3


@pytest.mark.parametrize("name, players", [("luosong", 2), ("taiwan", 4), ("weighted", 3)])
def test_simulated_points_are_settles(name, players):
    rules = PRESETS[name]
    pts = points_of(rules)
    tables = fasteval.tables_for(rules)
    rng = np.random.default_rng(5)
    for _ in range(15):
        deck = rng.permutation(52).astype(np.uint8)
        codes = np.sort(deck[:13 * players].reshape(players, 13), axis=1)
        s = splits.score_splits(codes, tables, rules.strict_order)
        # random legal layouts, so scoops, home runs and royalties all occur
        k = np.array([rng.choice(np.flatnonzero(s.legal[i])) for i in range(players)])
        values = s.values(k[:, None])[:, 0]
        got = table_points(values[:1], values[None, 1:], rules, pts)[0, 0]
        seats = []
        for i in range(players):
            rows = [" ".join(_cards(codes[i][p])) for p in splits.positions(int(k[i]), s, i)]
            seats.append(dict(zip(ROWS, rows, strict=True), name=f"p{i}", declare=False))
        assert got == settle({"rules": name, "players": seats}).totals["p0"]


def _function_imports(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            inner = [n for n in ast.walk(node) if isinstance(n, ast.Import | ast.ImportFrom)]
            found += [f"{path.name}:{n.lineno}" for n in inner]
    return found


def test_scoring_imports_nothing_inside_functions():
    assert [x for p in sorted(SCORING.glob("*.py")) for x in _function_imports(p)] == []
    assert "import_module" not in "".join(p.read_text(encoding="utf-8") for p in SCORING.glob("*.py"))


@pytest.mark.parametrize("module", ["scoring.settlement", "scoring.suggest", "scoring.arrange",
                                    "scoring.winprob", "scoring.selfplay", "scoring.cli"])
def test_each_module_imports_first(module):
    """No cycle: every module can be the first one imported."""
    out = subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True, text=True,
                         cwd=SCORING.parent, check=False)
    assert out.returncode == 0, out.stderr


def test_rank_counts_are_the_hands_ranks():
    rules = PRESETS["luosong"]
    hands = selfplay.deal(np.random.default_rng(6), 50)
    sample = Sample(selfplay.arrange_all(hands, rules, None), 0.0)
    want = np.stack([np.bincount(h >> 2, minlength=13) for h in hands])
    assert (winprob.rank_counts(sample) == want).all()


def test_removal_weights_are_the_rank_odds():
    counts = np.zeros((4, 13), dtype=int)
    counts[0, 12], counts[2, 12], counts[3, 12] = 1, 2, 3   # one, no, two, three aces
    held = np.zeros((1, 13), dtype=int)
    held[0, 12] = 2                                          # the player holds two aces
    w = winprob.removal_weights(counts, held)[0]
    ratio = np.array([2 / 4, 1.0, 1 / 6, 0.0])               # C(2, c) / C(4, c)
    assert w == pytest.approx(ratio / ratio.mean())
    assert (winprob.removal_weights(counts, np.zeros((1, 13), dtype=int)) == 1).all()


def test_model_given_a_hand_sees_its_cards():
    """Holding three aces and three kings, a head pair of queens meets fewer better heads."""
    rules = PRESETS["luosong"]
    t = fasteval.tables_for(rules)
    codes = splits.hand_codes(parse_cards("As Ah Ad Ks Kh Kd 2c 3c 4d 5h 7s 8d 9c"), rules)
    given = winprob.model_given(rules, codes[None])
    queens = t.value(["Qs", "Qh", "2s"])
    assert given.lose[0][0, queens] < 0.75 * model_for(rules).lose[0][queens]
    assert given.opp_weight.shape == (1, len(given.opp)) and given.opp_weight.mean() == pytest.approx(1.0)
