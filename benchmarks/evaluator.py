"""Row evaluator throughput: `scoring.fasteval` (batched numpy) against `treys` (per hand, pure Python).

    python -m benchmarks.evaluator [--hands 200000]

Both evaluate the same random 5-card hands in the same run; the figures are printed, not asserted.
treys is installed with pip when it is missing (it is in the `dev` extra).
"""

from __future__ import annotations

import argparse
import importlib
import subprocess
import sys
import time

import numpy as np

from scoring import fasteval


def _treys():
    try:
        return importlib.import_module("treys")
    except ModuleNotFoundError:
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", "treys==0.1.8"], check=True)
        return importlib.import_module("treys")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--hands", type=int, default=200_000, help="hands for fasteval (treys gets a tenth)")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    treys = _treys()
    rng = np.random.default_rng(args.seed)
    hands = np.argsort(rng.random((args.hands, 52)), axis=1)[:, :5].astype(np.uint8)

    t0 = time.perf_counter()
    tables = fasteval.tables("low")
    build = time.perf_counter() - t0
    best = float("inf")
    for _ in range(5):
        t0 = time.perf_counter()
        values = tables.eval5(hands)
        best = min(best, time.perf_counter() - t0)
    fast = args.hands / best

    n = max(1, args.hands // 10)
    ev = treys.Evaluator()
    tc = [treys.Card.new(fasteval.decode(c)) for c in range(52)]
    th = [[tc[c] for c in h] for h in hands[:n].tolist()]
    best = float("inf")
    for _ in range(3):
        t0 = time.perf_counter()
        ranks = [ev.evaluate(h[:2], h[2:]) for h in th]
        best = min(best, time.perf_counter() - t0)
    slow = n / best

    # same order (treys: lower is better)
    i, j = rng.integers(0, n, (2, 100_000))
    mine, theirs = values[:n].astype(int), np.array(ranks)
    agree = float(np.mean(np.sign(mine[i] - mine[j]) == np.sign(theirs[j] - theirs[i])))
    print(f"fasteval tables built in {build:.2f}s")
    print(f"fasteval: {fast:,.0f} hands/s   ({args.hands:,} hands per numpy call, best of 5)")
    print(f"treys:    {slow:,.0f} hands/s   ({n:,} hands, one call each, best of 3)")
    print(f"ratio:    {fast / slow:.1f}x   (order agreement with treys on random pairs: {agree:.4f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
