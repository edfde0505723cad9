"""A model with int8-stored weights is refused on an x86 CPU without VNNI (where onnxruntime would
compute it wrongly), with the command that converts it; uint8-stored and float models load."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from vision.int8 import STORED_UINT8, Int8WeightsError, check_int8, has_vnni, saturation_risk


class _Meta:
    def __init__(self, props: dict[str, str]):
        self.custom_metadata_map = props


class _Session:
    def __init__(self, note: str | None):
        self.props = {} if note is None else {"quantization": note}

    def get_modelmeta(self):
        return _Meta(self.props)


OLD_NOTE = "int8 QDQ, per-channel weights; Detect post-processing in float"


def test_int8_weights_are_refused_only_without_vnni():
    risk = saturation_risk(_Session(OLD_NOTE), Path("m.onnx"), vnni=False)
    assert risk is not None and "python -m vision.quantize --unsigned-only --model m.onnx" in risk
    assert saturation_risk(_Session(OLD_NOTE), Path("m.onnx"), vnni=True) is None
    assert saturation_risk(_Session(OLD_NOTE), Path("m.onnx"), vnni=None) is None  # ARM, or unknown
    assert saturation_risk(_Session(f"{OLD_NOTE} (weights {STORED_UINT8}, zero point 128)"), None,
                           vnni=False) is None
    assert saturation_risk(_Session(None), None, vnni=False) is None  # a float model


def test_check_raises_a_clear_error(monkeypatch):
    import vision.int8

    monkeypatch.setattr(vision.int8, "has_vnni", lambda: False)
    with pytest.raises(Int8WeightsError, match="re-store them as uint8"):
        check_int8(_Session(OLD_NOTE), Path("cards.onnx"))


def test_vnni_is_read_from_the_cpu_flags(tmp_path, monkeypatch):
    import platform

    monkeypatch.setattr(platform, "machine", lambda: "x86_64")
    f = tmp_path / "cpuinfo"
    f.write_text("processor\t: 0\nflags\t\t: fpu sse avx2 fma\n")
    assert has_vnni(f) is False
    f.write_text("processor\t: 0\nflags\t\t: fpu avx2 avx512f avx512_vnni\n")
    assert has_vnni(f) is True
    assert has_vnni(tmp_path / "missing") is None
    monkeypatch.setattr(platform, "machine", lambda: "aarch64")
    assert has_vnni(f) is None


def test_the_shipped_models_say_their_weights_are_uint8():
    onnx = pytest.importorskip("onnx")
    from vision.classifier import DEFAULT_NAMERS
    from vision.detector import DEFAULT_MODEL

    for model in (DEFAULT_MODEL, *DEFAULT_NAMERS):
        notes = [p.value for p in onnx.load(str(model)).metadata_props if p.key == "quantization"]
        assert notes and STORED_UINT8 in notes[0]


@pytest.mark.skipif(has_vnni() is not False, reason="only an x86 CPU without VNNI refuses int8 weights")
def test_cli_refuses_an_int8_weight_model_on_this_cpu(tmp_path):
    """On this machine (no VNNI) the detector as shipped before session 6 would misread: the CLI says
    why and how to convert it, exit 2, no traceback."""
    onnx = pytest.importorskip("onnx")
    from vision.detector import DEFAULT_MODEL

    m = onnx.load(str(DEFAULT_MODEL))
    for p in m.metadata_props:
        if p.key == "quantization":
            p.value = OLD_NOTE
    old = tmp_path / "cards.onnx"
    onnx.save(m, str(old))
    sample = Path(__file__).resolve().parents[2] / "assets" / "sample.jpg"
    r = subprocess.run([sys.executable, "-m", "vision", "detect", str(sample), "--json", "--model", str(old)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and "--unsigned-only" in r.stderr and "Traceback" not in r.stderr
