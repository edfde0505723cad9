"""The int8-stored copies of the shipped models (`name.s8.onnx`): read only where the CPU has VNNI,
only when made from the model as it is, and there they compute exactly what the uint8-stored model
does."""

from __future__ import annotations

import json
import shutil
import warnings
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.classifier import DEFAULT_NAMERS
from vision.crops import crop_box, crops_to_blob
from vision.detector import DEFAULT_MODEL
from vision.int8 import SIGNED_FROM, has_vnni, signed_copy_path
from vision.sessions import _session, file_sha1, open_session, weights_for_cpu

DATA = Path(__file__).resolve().parents[1] / "data" / "vision"
SHIPPED = (DEFAULT_MODEL, *DEFAULT_NAMERS)


@pytest.mark.parametrize(("vnni", "copy", "read"), [
    (True, True, "m.s8.onnx"),
    (True, False, "m.onnx"),
    (False, True, "m.onnx"),  # uint8 x int8 kernels would saturate
    (None, True, "m.onnx"),  # not an x86 CPU, or its flags unknown: the measured file
])
def test_the_copy_is_read_only_with_vnni(tmp_path, vnni, copy, read):
    (tmp_path / "m.onnx").write_bytes(b"model")
    if copy:
        (tmp_path / "m.s8.onnx").write_bytes(b"copy")
    assert weights_for_cpu(tmp_path / "m.onnx", vnni=vnni) == tmp_path / read


def test_the_copies_can_be_turned_off(tmp_path, monkeypatch):
    import vision.sessions

    (tmp_path / "m.onnx").write_bytes(b"model")
    (tmp_path / "m.s8.onnx").write_bytes(b"copy")
    monkeypatch.setattr(vision.sessions, "has_vnni", lambda: True)
    assert weights_for_cpu(tmp_path / "m.onnx") == tmp_path / "m.s8.onnx"
    monkeypatch.setenv("CARDS_INT8_COPIES", "0")
    assert weights_for_cpu(tmp_path / "m.onnx") == tmp_path / "m.onnx"


def test_the_shipped_copies_are_made_from_the_shipped_models():
    for model in SHIPPED:
        meta = _session(signed_copy_path(model), 1).get_modelmeta().custom_metadata_map
        assert meta[SIGNED_FROM] == file_sha1(model), f"re-make it: python -m vision.quantize " \
                                                       f"--signed-copy --model {model}"
        assert "stored uint8" not in meta["quantization"]  # refused where it would saturate


def test_a_copy_of_another_model_is_not_read(tmp_path, monkeypatch):
    onnx = pytest.importorskip("onnx")
    import vision.sessions
    from vision.quantize import signed_copy

    monkeypatch.setattr(vision.sessions, "has_vnni", lambda: True)
    model = tmp_path / "namer.onnx"
    shutil.copy(DEFAULT_NAMERS[0], model)
    copy = signed_copy(model)
    assert copy == tmp_path / "namer.s8.onnx"
    assert SIGNED_FROM in open_session(model, 1).get_modelmeta().custom_metadata_map
    m = onnx.load(str(model))  # re-quantised since: its copy is stale
    prop = m.metadata_props.add()
    prop.key, prop.value = "changed", "yes"
    onnx.save(m, str(model))
    with pytest.warns(UserWarning, match="--signed-copy --model"):
        meta = open_session(model, 1).get_modelmeta().custom_metadata_map
    assert SIGNED_FROM not in meta and meta["changed"] == "yes"
    with pytest.raises(SystemExit, match="no uint8-stored weights"):
        signed_copy(copy)  # already int8


@pytest.mark.skipif(has_vnni() is not True, reason="the int8-stored copies are read only on a VNNI CPU")
def test_the_copies_compute_the_same_numbers_here():
    img = cv2.imread(str(DATA / "table2.jpg"))
    meta = json.loads((DATA / "table2.json").read_text())
    boxes = [ix["box"] for c in meta["cards"] for ix in c["indices"]]
    crops = crops_to_blob([crop_box(img, b) for b in boxes])
    photo = np.ascontiguousarray(cv2.resize(img, (736, 960))[:, :, ::-1].transpose(2, 0, 1)[None],
                                 np.float32) / 255
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for model, feed in ((DEFAULT_MODEL, photo), *((m, crops) for m in DEFAULT_NAMERS)):
            assert weights_for_cpu(model) == signed_copy_path(model)
            a, b = _session(model, 2), open_session(model, 2)
            name = a.get_inputs()[0].name
            for x, y in zip(a.run(None, {name: feed}), b.run(None, {name: feed}), strict=True):
                np.testing.assert_array_equal(x, y)
