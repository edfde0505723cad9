"""The namer's teacher term (`--teacher`): zero where the net reads as the teacher does, a pull toward
the teacher's sharp read where the net sees the crop blurred, and no change to the teacher."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="needs the [train] extra")


def nets(seed: int = 0):
    """A small teacher whose reads follow every pixel (no pooling) and a student that starts as its copy."""
    import copy

    import torch

    torch.manual_seed(seed)
    teacher = torch.nn.Sequential(torch.nn.Conv2d(3, 4, 3, stride=2), torch.nn.Flatten(),
                                  torch.nn.Linear(4 * 27 * 27, 55))
    with torch.no_grad():
        teacher[2].weight.mul_(20.0)  # sure reads, so that a blurred crop reads differently
    return teacher, copy.deepcopy(teacher)


def crops(n: int = 6, seed: int = 1):
    import torch

    return torch.rand(n, 3, 56, 56, generator=torch.Generator().manual_seed(seed))


def test_a_net_reading_as_its_teacher_costs_nothing() -> None:
    from vision.train_classifier import distill_loss

    teacher, student = nets()
    x = crops()
    assert float(distill_loss(student(x), teacher, x)) == pytest.approx(0.0, abs=1e-6)


def test_a_blurred_crop_is_pulled_toward_the_teachers_sharp_read() -> None:
    import torch

    from vision.photo_blur import photo_blur
    from vision.train_classifier import distill_loss

    teacher, student = nets()
    x = crops()
    blurred = photo_blur(x, torch.Generator().manual_seed(2), 1.0, ratio_range=(0.1, 0.13))
    before = float(distill_loss(student(blurred), teacher, x))
    assert before > 1e-4  # the blurred crop reads differently from the sharp one
    opt = torch.optim.Adam(student.parameters(), lr=1e-3)
    for _ in range(60):
        loss = distill_loss(student(blurred), teacher, x)
        opt.zero_grad()
        loss.backward()
        opt.step()
    assert float(distill_loss(student(blurred), teacher, x)) < 0.3 * before
    assert all(q.grad is None for q in teacher.parameters())


def test_the_teacher_loads_frozen(tmp_path: Path) -> None:
    import torch

    from vision.classifier import CLASSIFIER_NAMES
    from vision.index_nets import IndexNet
    from vision.train_classifier import load_teacher

    torch.manual_seed(0)
    teacher = IndexNet(width=8).eval()
    path = tmp_path / "t.pt"
    torch.save({"state_dict": teacher.state_dict(), "names": list(CLASSIFIER_NAMES), "size": 56,
                "width": 8, "factored": False}, path)
    loaded = load_teacher(path, "cpu")
    assert not loaded.training
    assert not any(q.requires_grad for q in loaded.parameters())
    x = crops()
    assert torch.allclose(loaded(x), teacher(x), atol=1e-6)
