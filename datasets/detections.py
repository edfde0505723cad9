"""A detector simulated on a scene's truth: one detection per visible corner index, with class scores.

The geometry benchmark (`python -m benchmarks.geometry`) and the geometry tests (`tests/vision`)
share it, so both rest on the same assumptions about the detector (`scores_for` says which); it
lives beside the scene format it reads, where both may import it.
Scenes are the dataset generator's meta JSON (docs/ARCHITECTURE.md), or `tests.vision.layouts`'s
hand-built ones in the same format. Random draws come only from the generator passed in, in a fixed
order, so a seed gives the same detections wherever it is used.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from vision.classes import CLASS_INDEX, CLASS_NAMES
from vision.types import Detection


def scores_for(
    card: str, rng: np.random.Generator, *, misread_as: str | None = None, model: str = "calibrated"
) -> tuple[str, float, np.ndarray]:
    """A plausible sigmoid score vector: the true class high, a look-alike lower, the rest near 0.

    What is assumed about the detector (the geometry step's flags rest on it):

    - a right read: the true class at 0.6-0.99, the best other class at 0.03-0.25, so the margin
      (top-1 minus top-2) is at least 0.35;
    - a misread, `model="calibrated"` (the default): a detector whose scores mean something is
      unsure when it is wrong: the wrong class at 0.35-0.70 and the true class right behind it at
      60-95% of that, so the margin is under 0.3 (and the confidence under 0.5 in 40% of misreads);
    - a misread, `model="uniform"` (the pessimistic model used before): the wrong class at
      0.45-0.90, the true class at 0.15 up to 90% of it: margins up to 0.75, as confident as a right
      read. Nothing in one detection can tell such a misread from a right read.
    """
    p = rng.uniform(0.0, 0.03, len(CLASS_NAMES))
    true = CLASS_INDEX[card]
    look = (true + rng.integers(1, len(CLASS_NAMES))) % len(CLASS_NAMES)
    if misread_as is None:
        p[true] = rng.uniform(0.6, 0.99)
        p[look] = rng.uniform(0.03, 0.25)
        return card, float(p[true]), p.astype(np.float32)
    wrong = CLASS_INDEX[misread_as]
    if model == "uniform":
        p[wrong] = rng.uniform(0.45, 0.9)
        p[true] = rng.uniform(0.15, p[wrong] * 0.9)
    else:
        p[wrong] = rng.uniform(0.35, 0.70)
        p[true] = p[wrong] * rng.uniform(0.60, 0.95)
    return misread_as, float(p[wrong]), p.astype(np.float32)


def scene_detections(
    scene: dict,
    rng: np.random.Generator,
    *,
    drop: float = 0.0,
    misread: float = 0.0,
    model: str = "calibrated",
) -> Iterator[tuple[int, Detection]]:
    """One detection per visible index box, with the index of the card it came from; `drop` and
    `misread` damage them as a detector would (the score model is `scores_for`)."""
    for ci, c in enumerate(scene["cards"]):
        for ix in c["indices"]:
            if not ix["visible"] or rng.random() < drop:
                continue
            wrong = None
            if rng.random() < misread:
                wrong = CLASS_NAMES[(CLASS_INDEX[c["card"]] + int(rng.integers(1, 52))) % 52]
            name, conf, p = scores_for(c["card"], rng, misread_as=wrong, model=model)
            yield ci, Detection(name, tuple(float(v) for v in ix["box"]), conf, p)
