"""The calibration figures separate the model's error from the measurement's noise."""

from __future__ import annotations

import numpy as np
import pytest

from benchmarks.calibration import by_thirds, calibrate


def test_pure_noise_leaves_no_model_error_and_a_true_bias():
    rng = np.random.default_rng(1)
    truth = rng.normal(0, 2, 4000)                     # hands' true values spread widely
    se = np.full(4000, 0.2)
    measured = truth + rng.normal(0, 0.2, 4000)
    c = calibrate(truth + 0.1, measured, se)           # a model off by exactly +0.1 everywhere
    assert c.bias == pytest.approx(0.1, abs=3 * c.bias_se)
    assert c.bias_se == pytest.approx(0.2 / np.sqrt(4000), rel=0.1)   # paired: the spread of 2 cancels
    assert c.noise == pytest.approx(0.2)
    assert c.model_rms == pytest.approx(0.1, abs=0.03)
    assert c.model_rms <= c.model_rms_hi


def test_model_error_is_found_under_the_noise():
    rng = np.random.default_rng(2)
    truth = rng.normal(0, 2, 4000)
    error = rng.normal(0, 0.3, 4000)
    measured = truth + rng.normal(0, 0.2, 4000)
    c = calibrate(truth + error, measured, np.full(4000, 0.2))
    assert c.rms == pytest.approx(np.sqrt(0.3 ** 2 + 0.2 ** 2), rel=0.05)
    assert c.model_rms == pytest.approx(0.3, rel=0.08)


def test_thirds_split_by_expected_score():
    e = np.arange(9.0)
    parts = by_thirds(e[::-1], e[::-1] - np.repeat([0.0, 1.0, 2.0], 3)[::-1], np.zeros(9))
    assert [(lo, hi) for lo, hi, _ in parts] == [(0.0, 2.0), (3.0, 5.0), (6.0, 8.0)]
    assert [c.bias for _, _, c in parts] == pytest.approx([0.0, 1.0, 2.0])
    assert all(c.n == 3 for _, _, c in parts)
