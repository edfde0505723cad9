"""Write scenes as a YOLO dataset: images/NAME.jpg, labels/NAME.txt, meta/NAME.json."""

from __future__ import annotations

import json
from pathlib import Path

from .scene import Scene, jpeg_bytes


def yolo_lines(labels: list[tuple[int, float, float, float, float]]) -> str:
    return "".join(f"{c} {x:.6f} {y:.6f} {w:.6f} {h:.6f}\n" for c, x, y, w, h in labels)


def write_scene(out: Path, name: str, scene: Scene, meta: bool = True) -> None:
    (out / "images").mkdir(parents=True, exist_ok=True)
    (out / "labels").mkdir(parents=True, exist_ok=True)
    (out / "images" / f"{name}.jpg").write_bytes(jpeg_bytes(scene.image, scene.quality))
    (out / "labels" / f"{name}.txt").write_text(yolo_lines(scene.labels))
    if meta:
        (out / "meta").mkdir(parents=True, exist_ok=True)
        m = {"image": f"{name}.jpg", **scene.meta}
        (out / "meta" / f"{name}.json").write_text(json.dumps(m, separators=(",", ":")))
