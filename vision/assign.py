"""Minimum-cost assignment (Hungarian / Kuhn-Munkres, shortest augmenting paths), numpy only.

Why here and not scipy's `linear_sum_assignment`: it is the only thing the runtime would need
scipy for (~35 MB), the matrices are tiny (<= 65 cards x 108 deck slots, well under a millisecond),
and the tests check this against brute force.

>>> import numpy as np
>>> assign(np.array([[4.0, 1.0, 3.0], [2.0, 0.0, 5.0]])).tolist()
[1, 0]
"""

from __future__ import annotations

import numpy as np


def assign(cost: np.ndarray) -> np.ndarray:
    """For an n x m cost matrix with n <= m, the column given to each row, minimising the total."""
    cost = np.asarray(cost, dtype=np.float64)
    n, m = cost.shape
    if n > m:
        raise ValueError(f"more rows than columns ({n} > {m})")
    u = np.zeros(n + 1)
    v = np.zeros(m + 1)
    p = np.zeros(m + 1, dtype=np.int64)  # p[j]: row (1-based) matched to column j; column 0 is a sentinel
    way = np.zeros(m + 1, dtype=np.int64)
    for i in range(1, n + 1):
        p[0] = i
        j0 = 0
        minv = np.full(m + 1, np.inf)
        used = np.zeros(m + 1, dtype=bool)
        while True:
            used[j0] = True
            i0 = p[j0]
            free = ~used
            free[0] = False
            cur = cost[i0 - 1] - u[i0] - v[1:]
            better = free[1:] & (cur < minv[1:])
            minv[1:][better] = cur[better]
            way[1:][better] = j0
            cand = np.where(free[1:], minv[1:], np.inf)
            j1 = int(np.argmin(cand)) + 1
            delta = cand[j1 - 1]
            u[p[used]] += delta
            v[used] -= delta
            minv[free] -= delta
            j0 = j1
            if p[j0] == 0:
                break
        while j0:
            j1 = way[j0]
            p[j0] = p[j1]
            j0 = j1
    out = np.full(n, -1, dtype=np.int64)
    for j in range(1, m + 1):
        if p[j]:
            out[p[j] - 1] = j - 1
    return out
