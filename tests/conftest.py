"""Test-wide settings: property tests draw the same examples on every run.

Hypothesis draws new random examples each run by default, so a clean CI run could fail on an
example no one has seen, or pass where the last one failed. Every run here draws the same ones
(`derandomize`); a session hunting for new failures asks for fresh ones with
`HYPOTHESIS_PROFILE=explore python -m pytest tests/vision/test_geometry.py` and pins what it finds
as an `@example`.
"""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("deterministic", derandomize=True, database=None)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "deterministic"))
