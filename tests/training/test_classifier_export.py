"""`python -m vision.train_classifier --export-only`: a checkpoint's ONNX without its training data."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
ort = pytest.importorskip("onnxruntime")

from vision.classifier import CLASSIFIER_NAMES  # noqa: E402
from vision.index_nets import load_checkpoint  # noqa: E402
from vision.train_classifier import main  # noqa: E402


def _crops(path: Path, n: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    np.savez(path, x=rng.integers(0, 256, (n, 56, 56, 3), dtype=np.uint8),
             y=rng.integers(0, len(CLASSIFIER_NAMES), n), src=np.zeros(n, dtype=np.int64))


@pytest.fixture
def denormals_restored():
    """Training flushes denormals to zero for the whole process (`torch.set_flush_denormal`): later
    tests (Hypothesis checks subnormal floats) need the IEEE default back."""
    yield
    torch.set_flush_denormal(False)


@pytest.mark.usefixtures("denormals_restored")
def test_export_only_writes_the_checkpoints_own_logits(tmp_path: Path) -> None:
    data = tmp_path / "crops"
    data.mkdir()
    _crops(data / "train.npz", 64, 1)
    _crops(data / "val.npz", 16, 2)
    pt, first, again = tmp_path / "c.pt", tmp_path / "c.onnx", tmp_path / "again.onnx"
    assert main(["--data", str(data), "--steps", "2", "--batch", "8", "--width", "8", "--threads", "1",
                 "--out", str(pt), "--onnx", str(first)]) == 0
    assert main(["--init", str(pt), "--export-only", "--onnx", str(again)]) == 0

    model, ckpt = load_checkpoint(pt)
    assert ckpt["size"] == 56
    x = np.random.default_rng(3).random((5, 3, 56, 56), dtype=np.float32)
    with torch.no_grad():
        want = model.eval()(torch.from_numpy(x)).numpy()
    got = ort.InferenceSession(str(again)).run(None, {"crops": x})[0]
    np.testing.assert_allclose(got, want, atol=1e-4)


def test_export_only_needs_a_checkpoint(tmp_path: Path) -> None:
    with pytest.raises(SystemExit):
        main(["--export-only", "--onnx", str(tmp_path / "x.onnx")])


REPO = Path(__file__).resolve().parents[2]

# Loading a backbone checkpoint imports Ultralytics, which patches PIL's Image.open for the whole
# process (the image-reading tests' errors would change): it runs in a child process here.
LOAD_AND_READ = """
import sys
import numpy as np, torch
from pathlib import Path
from vision.index_nets import load_checkpoint
model, ckpt = load_checkpoint(Path(sys.argv[1]))
x = torch.from_numpy(np.load(sys.argv[2]))
with torch.no_grad():
    p = torch.softmax(model.eval()(x), 1).numpy()
np.savez(sys.argv[3], p=p, size=ckpt["size"], cls=type(model).__module__ + "." + type(model).__name__,
         head=type(model.head).__name__)
"""


def _load_and_read(pt: Path, x: np.ndarray, tmp_path: Path) -> dict:
    """The checkpoint loaded in a child process (not `python -m vision.train_classifier`): its class,
    head, crop size and softmax reads of `x`."""
    import subprocess
    import sys

    np.save(tmp_path / "x.npy", x)
    args = [str(pt), str(tmp_path / "x.npy"), str(tmp_path / "out.npz")]
    subprocess.run([sys.executable, "-c", LOAD_AND_READ, *args], check=True, cwd=REPO, capture_output=True)
    out = np.load(tmp_path / "out.npz")
    return {k: out[k] if k == "p" else out[k].item() for k in out.files}


def _smooth_crops(n: int, seed: int) -> np.ndarray:
    small = torch.from_numpy(np.random.default_rng(seed).random((n, 3, 7, 7), dtype=np.float32))
    return torch.nn.functional.interpolate(small, size=(56, 56), mode="bilinear").numpy()


@pytest.mark.parametrize("name, head", [("index_classifier", "Sequential"),
                                        ("index_classifier_2", "FactoredHead")])
def test_the_shipped_checkpoints_load_here_and_hold_the_shipped_weights(name: str, head: str,
                                                                         tmp_path: Path) -> None:
    """The committed namer checkpoints (pickled by `python -m vision.train_classifier`, as `__main__`)
    load from any importer, and read as their int8 export does: a run resumes from what ships."""
    from vision.classifier import softmax

    x = _smooth_crops(16, 4)
    got = _load_and_read(REPO / "models" / f"{name}.pt", x, tmp_path)
    assert got["cls"] == "vision.index_nets.YoloIndexNet" and got["head"] == head and got["size"] == 56
    shipped = softmax(ort.InferenceSession(str(REPO / "models" / f"{name}.onnx")).run(None, {"crops": x})[0])
    assert np.abs(shipped - got["p"]).max() < 0.1  # int8 rounding; another net's reads differ by far more


def test_a_backbone_checkpoint_from_the_command_names_this_module(tmp_path: Path) -> None:
    """A `YoloIndexNet` is pickled whole: written by the command, it must name `vision.index_nets`,
    not `__main__`, to load anywhere else (the shipped checkpoints, which name
    `vision.train_classifier`, load too: the other test here)."""
    import subprocess
    import sys
    import zipfile

    data = tmp_path / "crops"
    data.mkdir()
    _crops(data / "train.npz", 16, 1)
    _crops(data / "val.npz", 8, 2)
    pt = tmp_path / "b.pt"
    subprocess.run([sys.executable, "-m", "vision.train_classifier", "--data", str(data), "--steps", "1",
                    "--batch", "8", "--threads", "1", "--backbone", str(REPO / "models" / "last.pt"),
                    "--factored", "--out", str(pt), "--onnx", str(tmp_path / "b.onnx")],
                   check=True, cwd=REPO, capture_output=True)
    with zipfile.ZipFile(pt) as z:
        pickled = z.read(next(n for n in z.namelist() if n.endswith("data.pkl")))
    assert b"vision.index_nets" in pickled and b"__main__" not in pickled
    got = _load_and_read(pt, _smooth_crops(2, 5), tmp_path)
    assert got["cls"] == "vision.index_nets.YoloIndexNet" and got["head"] == "FactoredHead"


@pytest.mark.usefixtures("denormals_restored")
def test_a_factored_plain_net_is_rebuilt_from_its_checkpoint(tmp_path: Path) -> None:
    """`--factored` without a backbone: an `IndexNet` with the rank + suit + card head, stored as
    weights plus its width and head (not pickled whole), read back the same and exported later."""
    from vision.index_nets import FactoredHead, IndexNet

    data = tmp_path / "crops"
    data.mkdir()
    _crops(data / "train.npz", 32, 1)
    _crops(data / "val.npz", 8, 2)
    pt, onnx_path = tmp_path / "f.pt", tmp_path / "f.onnx"
    assert main(["--data", str(data), "--steps", "2", "--batch", "8", "--width", "8", "--threads", "1",
                 "--factored", "--out", str(pt), "--no-export", "--onnx", str(onnx_path)]) == 0
    assert pt.is_file() and not onnx_path.exists()  # --no-export: the weights only

    model, ckpt = load_checkpoint(pt)
    assert isinstance(model, IndexNet) and isinstance(model.head, FactoredHead)
    assert ckpt["factored"] is True and ckpt["width"] == 8 and "model" not in ckpt
    assert main(["--init", str(pt), "--export-only", "--onnx", str(onnx_path)]) == 0
    x = _smooth_crops(3, 7)
    with torch.no_grad():
        want = model.eval()(torch.from_numpy(x)).numpy()
    got = ort.InferenceSession(str(onnx_path)).run(None, {"crops": x})[0]
    np.testing.assert_allclose(got, want, atol=1e-4)


def test_crops_are_fed_as_the_runtime_feeds_them() -> None:
    """uint8 BGR crops, N x S x S x 3, become float RGB N x 3 x S x S in 0..1 only when a batch is
    drawn (the training set stays uint8)."""
    from vision.train_classifier import as_input

    bgr = torch.tensor([[[[0, 51, 255], [255, 0, 0]], [[10, 20, 30], [0, 0, 0]]]], dtype=torch.uint8)
    got = as_input(bgr)
    assert got.shape == (1, 3, 2, 2) and got.dtype == torch.float32
    want = np.array([[[[1.0, 0.0], [30 / 255, 0.0]],  # R
                      [[0.2, 0.0], [20 / 255, 0.0]],  # G
                      [[0.0, 1.0], [10 / 255, 0.0]]]], np.float32)  # B
    np.testing.assert_allclose(got.numpy(), want, atol=1e-7)
