"""The training entry point runs one tiny epoch end to end and writes a checkpoint (extra `train`)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

pytest.importorskip("ultralytics", reason="training needs the [train] extra (torch, ultralytics)")

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.train
@pytest.mark.timeout(600)
def test_one_tiny_epoch_writes_checkpoint(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import subprocess

    data = tmp_path / "data"
    cmd = [
        "--out",
        str(data),
        "--train",
        "4",
        "--val",
        "2",
        "--seed",
        "7",
        "--imgsz",
        "128",
        "--workers",
        "1",
    ]
    subprocess.run([sys.executable, "-m", "datasets.build", *cmd], check=True, cwd=REPO)
    assert (data / "data.yaml").exists()

    import vision.train as train

    monkeypatch.setattr(train, "MODELS", tmp_path / "models")  # never touch the shipped checkpoint
    monkeypatch.setenv("YOLO_CONFIG_DIR", str(tmp_path / "ycfg"))
    rc = train.main(
        [
            "--data",
            str(data / "data.yaml"),
            "--model",
            "yolov8n",
            "--pretrained",
            "none",
            "--imgsz",
            "128",
            "--epochs",
            "1",
            "--batch",
            "2",
            "--project",
            str(tmp_path / "runs"),
            "--no-val",
        ]
    )
    assert rc == 0
    last = tmp_path / "models" / "last.pt"
    assert last.exists() and last.stat().st_size > 1_000_000

    import torch

    ckpt = torch.load(last, map_location="cpu", weights_only=False)
    names = ckpt["model"].names
    from vision.classes import CLASS_NAMES

    assert [names[i] for i in range(len(names))] == list(CLASS_NAMES)
    assert os.environ.get("YOLO_OFFLINE") == "1"
    assert sys.modules.get("vision.train") is train
