"""int8 quantisation keeps the Detect head's post-processing in float (the output mixes pixels and
probabilities: one int8 scale for both wiped every probability in the first attempt)."""

from __future__ import annotations

import pytest

onnx = pytest.importorskip("onnx")

from vision.quantize import float_nodes  # noqa: E402


def test_only_the_heads_post_processing_stays_float(tmp_path):
    h = onnx.helper
    names = [
        ("Conv", "/model.21/cv2/conv/Conv"),
        ("Conv", "/model.22/cv3.2/cv3.2.2/Conv"),
        ("Conv", "/model.22/cv2.0/cv2.0.2/Conv"),
        ("Reshape", "/model.22/Reshape_5"),
        ("Conv", "/model.22/dfl/conv/Conv"),
        ("Sigmoid", "/model.22/Sigmoid"),
        ("Concat", "/model.22/Concat_3"),
    ]
    nodes = [h.make_node("Identity", [f"t{i}"], [f"t{i + 1}"], name=n) for i, (_, n) in enumerate(names)]
    for node, (op, _) in zip(nodes, names, strict=True):
        node.op_type = op  # only names and op types matter to the selection
    graph = h.make_graph(nodes, "g", [h.make_tensor_value_info("t0", onnx.TensorProto.FLOAT, [1])],
                         [h.make_tensor_value_info(f"t{len(names)}", onnx.TensorProto.FLOAT, [1])])
    path = tmp_path / "m.onnx"
    onnx.save(h.make_model(graph), str(path))
    assert float_nodes(path) == [
        "/model.22/Reshape_5", "/model.22/dfl/conv/Conv", "/model.22/Sigmoid", "/model.22/Concat_3",
    ]


def test_classifier_quantises_and_still_reads(tmp_path):
    """The index classifier's int8 path: a small float classifier, calibrated on crops stored as
    `datasets.crops` writes them, loads in the runtime and gives the same answers on them."""
    pytest.importorskip("onnxruntime.quantization")
    from pathlib import Path

    import numpy as np

    from vision.classifier import IndexClassifier
    from vision.crops import crops_to_blob
    from vision.quantize import quantize_classifier

    tiny = Path(__file__).parent.parent / "data" / "vision" / "tiny_cls.onnx"
    rng = np.random.default_rng(0)
    x = rng.integers(0, 255, (48, 40, 40, 3), dtype=np.uint8)
    x[:16, 5:35, 10:30] = (0, 0, 255)  # red patches: the tiny model's Ah
    x[16:32, 5:35, 10:30] = (255, 0, 0)  # blue: As
    np.savez(tmp_path / "c.npz", x=x, y=np.zeros(len(x), np.int64))
    out = quantize_classifier(tiny, tmp_path / "q.onnx", [tmp_path / "c.npz"], [48])
    f, q = IndexClassifier(tiny), IndexClassifier(out)
    assert q.size == f.size == 40
    pf = f.sessions[0].run(None, {"crops": crops_to_blob(list(x))})[0]
    pq = q.sessions[0].run(None, {"crops": crops_to_blob(list(x))})[0]
    assert (pf.argmax(1) == pq.argmax(1)).mean() > 0.9
    assert onnx.load(str(out)).metadata_props  # names and crop size travel with the model


def test_calibration_tiles_cover_each_photo_at_the_model_size(tmp_path):
    """Every tile of a 1000 x 700 photo at 640 x 640 (two columns, two rows), as the model's input."""
    import cv2
    import numpy as np

    from vision.quantize import calibration_tiles, tile_origins

    cv2.imwrite(str(tmp_path / "a.jpg"), np.full((700, 1000, 3), 200, np.uint8))
    assert tile_origins(1000, 640, 64) == [0, 360] and tile_origins(700, 640, 64) == [0, 60]
    blobs = calibration_tiles([tmp_path], 10, (640, 640))
    assert len(blobs) == 4 and all(b.shape == (1, 3, 640, 640) and b.dtype == np.float32 for b in blobs)


def test_quantising_writes_the_int8_stored_copy(tmp_path):
    """`vision.quantize` writes `q.onnx` (weights stored uint8) and `q.s8.onnx` beside it: the same
    weights stored int8, the source's SHA-1 recorded, every dequantised weight the same number."""
    pytest.importorskip("onnxruntime.quantization")
    from pathlib import Path

    import numpy as np
    from onnx import numpy_helper

    from vision.int8 import SIGNED_FROM
    from vision.quantize import main
    from vision.sessions import file_sha1

    tiny = Path(__file__).parent.parent / "data" / "vision" / "tiny_cls.onnx"
    x = np.random.default_rng(1).integers(0, 255, (16, 40, 40, 3), dtype=np.uint8)
    np.savez(tmp_path / "c.npz", x=x, y=np.zeros(len(x), np.int64))
    main(["--classifier", "--model", str(tiny), "--out", str(tmp_path / "q.onnx"),
          "--calib", str(tmp_path / "c.npz"), "--crops", "16"])
    u8, s8 = onnx.load(str(tmp_path / "q.onnx")), onnx.load(str(tmp_path / "q.s8.onnx"))
    assert {p.key: p.value for p in s8.metadata_props}[SIGNED_FROM] == file_sha1(tmp_path / "q.onnx")

    def weights(m) -> dict[str, np.ndarray]:
        inits = {t.name: numpy_helper.to_array(t) for t in m.graph.initializer}
        return {n.input[0]: (inits[n.input[0]].astype(np.int32) - inits[n.input[2]].astype(np.int32))
                * inits[n.input[1]] for n in m.graph.node
                if n.op_type == "DequantizeLinear" and n.input[0] in inits and len(n.input) > 2}

    a, b = weights(u8), weights(s8)
    assert a and a.keys() == b.keys()
    for name in a:
        np.testing.assert_array_equal(a[name], b[name])
    was = {t.name: numpy_helper.to_array(t).dtype for t in u8.graph.initializer if t.name in a}
    now = {t.name: numpy_helper.to_array(t).dtype for t in s8.graph.initializer if t.name in a}
    weights_u8 = [n for n, d in was.items() if d == np.uint8]
    assert weights_u8 and all(now[n] == np.int8 for n in weights_u8)
    assert all(now[n] == d for n, d in was.items() if d != np.uint8)  # biases (int32) as they were
