"""Shared helpers for the dataset tests: small procedural scenes, rendered once per session."""

from __future__ import annotations

import numpy as np
import pytest

from datasets.synth.scene import generate


def procedural(seed: int, i: int, size: int = 640, kind: str | None = None, exotic: bool = False):
    """A scene dealt only from procedural decks, so tests need no fetched assets."""
    return generate(seed, i, size=size, kind=kind, designs=(), exotic=exotic)


@pytest.fixture(scope="session")
def table_scenes():
    return [procedural(5, i, size=960, kind="table") for i in range(6)]


@pytest.fixture(scope="session")
def closeups():
    return [procedural(6, i, kind=k) for i, k in enumerate(["seat", "pile", "seat", "pile", "seat", "pile"])]


def yolo_to_px(label, w: int, h: int) -> tuple[int, int, int, int]:
    _, cx, cy, bw, bh = label
    return (
        int(np.floor((cx - bw / 2) * w)),
        int(np.floor((cy - bh / 2) * h)),
        int(np.ceil((cx + bw / 2) * w)),
        int(np.ceil((cy + bh / 2) * h)),
    )
