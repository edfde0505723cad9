"""How well a predicted score matches a measured one, hand by hand, with the measurement's noise.

Each hand has the solver's expected score e, a measured score m (the mean over M simulated
tables) and the measurement's own standard error s (the tables' spread / sqrt(M)). The
difference d = e - m is the model's error plus the measurement's noise, which are independent:

* bias: mean(d), with the standard error of that mean over the hands (paired: the hands' own
  spread of scores cancels, only the spread of d counts);
* per-hand error: rms(d) mixes both; mean(s^2) is the noise's share of mean(d^2), so
  sqrt(mean(d^2) - mean(s^2)) is the model's own per-hand rms error, with an upper bound from
  the standard error of that difference (it can come out 0 when the noise swamps it).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Calibration:
    n: int
    expected: float
    measured: float
    bias: float
    """mean(expected - measured)"""
    bias_se: float
    """standard error of `bias` over the hands"""
    rms: float
    """rms(expected - measured): model error and measurement noise together"""
    noise: float
    """rms of the measurement's per-hand standard error"""
    model_rms: float
    """the model's per-hand rms error, the measurement noise taken out"""
    model_rms_hi: float
    """an upper bound (two standard errors) of `model_rms`"""


def calibrate(expected: np.ndarray, measured: np.ndarray, se: np.ndarray) -> Calibration:
    """The calibration figures of hands with `expected`, `measured` and the measurement's `se`."""
    e, m, s = (np.asarray(x, dtype=float) for x in (expected, measured, se))
    d = e - m
    n = len(d)
    spread = d.std(ddof=1) / np.sqrt(n) if n > 1 else float("nan")
    excess = d ** 2 - s ** 2
    excess_se = excess.std(ddof=1) / np.sqrt(n) if n > 1 else float("nan")
    return Calibration(
        n=n, expected=float(e.mean()), measured=float(m.mean()), bias=float(d.mean()),
        bias_se=float(spread), rms=float(np.sqrt(np.mean(d ** 2))), noise=float(np.sqrt(np.mean(s ** 2))),
        model_rms=float(np.sqrt(max(0.0, excess.mean()))),
        model_rms_hi=float(np.sqrt(max(0.0, excess.mean() + 2 * excess_se))) if n > 1 else float("nan"),
    )


def by_thirds(expected: np.ndarray, measured: np.ndarray,
              se: np.ndarray) -> list[tuple[float, float, Calibration]]:
    """The calibration of each third of the hands by expected score, lowest first, with the
    expected score's range in it."""
    e = np.asarray(expected, dtype=float)
    out = []
    for part in np.array_split(np.argsort(e, kind="stable"), 3):
        if len(part):
            out.append((float(e[part].min()), float(e[part].max()),
                        calibrate(e[part], np.asarray(measured)[part], np.asarray(se)[part])))
    return out


def describe(c: Calibration) -> str:
    return (f"expected {c.expected:+.3f} vs measured {c.measured:+.3f}: "
            f"bias {c.bias:+.3f} ± {c.bias_se:.3f}; per hand rms {c.rms:.3f} "
            f"(measurement noise {c.noise:.3f}, model {c.model_rms:.3f}, ≤ {c.model_rms_hi:.3f})")
