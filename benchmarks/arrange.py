"""The solver's speed and its results at the table.

    python -m benchmarks.arrange [--hands 200] [--deals 2000] [--presets taiwan,luosong] [--no-sim]
    python -m benchmarks.arrange --quality [...]   (benchmarks.arrange_quality: the gap to the best split)

1. Speed: median and 95th percentile of `scoring.arrange` over random hands, without jokers
   (`taiwan`) and with both jokers (`shisanshui`, 54-card deck).
2. Simulation: random 4-player deals; seat 0 plays the solver's first answer (declaring a special
   when that is its answer), seats 1-3 play greedy (strongest tail, then middle, then head);
   `scoring.settle` scores each table. Printed: seat 0's average points per hand (with its
   standard error) for every preset. Figures are printed, not asserted.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from benchmarks import arrange_quality
from scoring.arrange import arrange, greedy
from scoring.cards import JOKERS, STANDARD_DECK, format_cards
from scoring.options import preset
from scoring.rules import PRESETS
from scoring.settlement import settle


def _timing(label: str, hands: list, rules) -> None:
    arrange(hands[0], rules)  # tables and model built outside the timing
    times = []
    for hand in hands:
        t0 = time.perf_counter()
        arrange(hand, rules)
        times.append(time.perf_counter() - t0)
    ms = np.array(times) * 1000
    print(f"arrange {label}: median {np.median(ms):.1f} ms, p95 {np.percentile(ms, 95):.1f} ms, "
          f"max {ms.max():.1f} ms over {len(hands)} hands")


def _player(name: str, a, declare: bool | None) -> dict:
    out = {"name": name, "head": format_cards(a.head), "middle": format_cards(a.middle),
           "tail": format_cards(a.tail)}
    if declare is not None:
        out["declare"] = declare
    return out


def simulate(name: str, deals: int, seed: int) -> tuple[float, float, float]:
    """Seat 0's mean and standard error per hand, and the greedy seats' mean."""
    rules = PRESETS[name]
    rng = np.random.default_rng(seed)
    mine, others = [], []
    for _ in range(deals):
        order = rng.permutation(52)
        hands = [[STANDARD_DECK[j] for j in order[13 * i: 13 * i + 13]] for i in range(4)]
        best = arrange(hands[0], rules, top=1)[0]
        players = [_player("S", best, best.special is not None)]
        players += [_player(f"G{i}", greedy(hands[i], rules), None) for i in (1, 2, 3)]
        result = settle({"rules": name, "players": players})
        mine.append(result.totals["S"])
        others.append(np.mean([result.totals[f"G{i}"] for i in (1, 2, 3)]))
    m = np.array(mine, dtype=float)
    return float(m.mean()), float(m.std(ddof=1) / np.sqrt(len(m))), float(np.mean(others))


def main(argv: list[str] | None = None) -> int:
    argv = list(argv) if argv is not None else sys.argv[1:]
    if "--quality" in argv:
        return arrange_quality.main([a for a in argv if a != "--quality"])
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--hands", type=int, default=200)
    p.add_argument("--deals", type=int, default=2000)
    p.add_argument("--presets", default=",".join(PRESETS))
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--no-sim", action="store_true", help="timing only")
    args = p.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    plain = [[STANDARD_DECK[j] for j in rng.permutation(52)[:13]] for _ in range(args.hands)]
    jokers = [[JOKERS["BJ"], JOKERS["SJ"], *(STANDARD_DECK[j] for j in rng.permutation(52)[:11])]
              for _ in range(args.hands)]
    _timing("no jokers (taiwan)", plain, PRESETS["taiwan"])
    _timing("two jokers (shisanshui, 54 cards)", jokers, preset("shisanshui", jokers=2))
    if args.no_sim:
        return 0
    for k, name in enumerate(args.presets.split(",")):
        t0 = time.perf_counter()
        mean, se, greedy_mean = simulate(name, args.deals, args.seed + 1000 * (k + 1))
        print(f"simulation {name}: solver vs 3 greedy over {args.deals} deals: "
              f"{mean:+.3f} ± {se:.3f} points per hand (greedy seats {greedy_mean:+.3f}), "
              f"{time.perf_counter() - t0:.0f}s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
