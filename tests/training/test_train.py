"""The training entry point runs one tiny epoch end to end and writes a checkpoint (extra `train`).

Training runs in a subprocess: importing Ultralytics monkey-patches `PIL.Image.open` for the whole
process, which would change how every later test's photo reading behaves.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from vision.classes import CLASS_NAMES

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("ultralytics") is None,
    reason="training needs the [train] extra (torch, ultralytics)",
)

REPO = Path(__file__).resolve().parents[2]

READ_NAMES = """
import json, sys, torch
ckpt = torch.load(sys.argv[1], map_location="cpu", weights_only=False)
names = ckpt["model"].names
print(json.dumps([names[i] for i in range(len(names))]))
"""


@pytest.mark.train
@pytest.mark.timeout(900)
def test_one_tiny_epoch_writes_checkpoint(tmp_path: Path) -> None:
    env = {**os.environ, "YOLO_CONFIG_DIR": str(tmp_path / "ycfg")}
    data = tmp_path / "data"
    build = ["--out", str(data), "--train", "4", "--val", "2", "--seed", "7", "--imgsz", "128"]
    subprocess.run([sys.executable, "-m", "datasets.build", *build, "--workers", "1"], check=True, cwd=REPO)
    assert (data / "data.yaml").exists()

    models = tmp_path / "models"  # never touch the shipped checkpoint
    train = [
        *("--data", str(data / "data.yaml"), "--model", "yolov8n", "--pretrained", "none"),
        *("--imgsz", "128", "--epochs", "1", "--batch", "2", "--no-val"),
        *("--project", str(tmp_path / "runs"), "--models-dir", str(models)),
    ]
    subprocess.run([sys.executable, "-m", "vision.train", *train], check=True, cwd=REPO, env=env)

    last = models / "last.pt"
    assert last.exists() and last.stat().st_size > 1_000_000
    out = subprocess.run(
        [sys.executable, "-c", READ_NAMES, str(last)], check=True, cwd=REPO, capture_output=True, text=True
    )
    assert json.loads(out.stdout.strip().splitlines()[-1]) == list(CLASS_NAMES)
