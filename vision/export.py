"""Export trained weights to the ONNX model the runtime loads (extra `train`).

The ONNX input shape is fixed at export (640, the crops the model is trained on): `vision.quantize`
calibrates that export on 640 tiles, and `vision.whole_photo` then frees its input size, which is
the model the runtime reads. Class names travel in the ONNX metadata, and the runtime reads only a
one-class index finder (`vision.train --single-cls`; `vision.proposer.check_proposer`).

    python -m vision.export --weights models/last.pt --imgsz 640      # -> models/cards.fp32.onnx
    python -m vision.quantize --calib DIR [--calib DIR]                # -> models/cards.onnx (int8)
    python -m vision.whole_photo --model models/cards.onnx            # any input size

The float export is an intermediate (not committed): the shipped `models/cards.onnx` is its int8
quantisation (`vision.quantize`), 2.8x faster per tile on this CPU for the same proposals.
"""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

from vision.train import MODELS, offline_env


def export(weights: Path, imgsz: int, out: Path, opset: int = 17) -> Path:
    offline_env()
    from ultralytics import YOLO

    model = YOLO(str(weights))
    produced = Path(
        model.export(format="onnx", imgsz=imgsz, opset=opset, simplify=True, dynamic=False, nms=False)
    )
    out.parent.mkdir(parents=True, exist_ok=True)
    if produced.resolve() != out.resolve():
        shutil.move(str(produced), out)
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="Export YOLO weights to ONNX (float; vision.quantize makes int8)")
    p.add_argument("--weights", default=str(MODELS / "last.pt"))
    p.add_argument("--imgsz", type=int, default=640)
    p.add_argument("--out", default=str(MODELS / "cards.fp32.onnx"))
    p.add_argument("--opset", type=int, default=17)
    args = p.parse_args(argv)
    path = export(Path(args.weights), args.imgsz, Path(args.out), args.opset)
    print(f"wrote {path} ({path.stat().st_size / 1e6:.1f} MB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
