"""The shipped int8 models keep their weights as uint8 (zero point 128): onnxruntime's uint8 x int8
kernels on x86 CPUs without VNNI (AVX2 only) saturate, and read the sample photo as 119 indices in
five seats instead of 63 in four (`vision.quantize.unsigned_weights`). Pair-safe int8 weights (no two
neighbours add up to more than 128 in magnitude, `vision.quantize.pair_safe_weights`) are the other
way out: those kernels then add exactly, and faster."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
from onnx import numpy_helper  # noqa: E402

from vision.classifier import DEFAULT_CLASSIFIER  # noqa: E402
from vision.detector import DEFAULT_MODEL  # noqa: E402

TINY = Path(__file__).parent.parent / "data" / "vision" / "tiny_cls.onnx"


def _weight_types(path: Path) -> set[int]:
    """The element types of the initializers that DequantizeLinear nodes read as weights."""
    m = onnx.load(str(path))
    inits = {t.name: t for t in m.graph.initializer}
    return {inits[n.input[0]].data_type for n in m.graph.node
            if n.op_type == "DequantizeLinear" and n.input[0] in inits}


@pytest.mark.parametrize("model", [DEFAULT_MODEL, DEFAULT_CLASSIFIER])
def test_shipped_models_store_no_int8_weights(model):
    kinds = _weight_types(model)  # int32: the biases
    assert onnx.TensorProto.UINT8 in kinds and onnx.TensorProto.INT8 not in kinds


def _pair_safe_detector(tmp_path: Path) -> Path:
    from vision.quantize import pair_safe_weights

    safe = tmp_path / "safe.onnx"
    assert pair_safe_weights(DEFAULT_MODEL, None, safe) == 63  # from its own weights: no float export here
    return safe


def test_pair_safe_detector_weights_are_pair_safe(tmp_path):
    """Checked here without `vision.quantize.pair_sums`: every conv's neighbouring input channels at
    each tap (the kernels' pairs), and for the 3-channel first layer every neighbour in either order."""
    m = onnx.load(str(_pair_safe_detector(tmp_path)))
    inits = {t.name: numpy_helper.to_array(t) for t in m.graph.initializer}
    convs = 0
    for n in m.graph.node:
        if n.op_type != "DequantizeLinear" or n.input[0] not in inits or inits[n.input[0]].ndim != 4:
            continue
        w = inits[n.input[0]]
        assert w.dtype == np.int8 and not inits[n.input[2]].any(), n.input[0]  # int8, zero point 0
        a = np.abs(w.astype(np.int32)).transpose(0, 2, 3, 1)  # O x kh x kw x I
        if a.shape[-1] % 2 == 0:
            worst = (a[..., 0::2] + a[..., 1::2]).max()
        else:
            flats = (a.reshape(len(a), -1), np.abs(w.astype(np.int32)).reshape(len(a), -1))
            worst = max((f[:, 1:] + f[:, :-1]).max() for f in flats)
        assert worst <= 128, n.input[0]
        convs += 1
    assert convs == 63  # every convolution of the YOLOv8s


def test_pair_safe_detector_computes_what_exact_kernels_compute(tmp_path):
    """The detector's weights made pair-safe, then re-stored as uint8 (exact uint8 x uint8 kernels
    everywhere): the same raw outputs on the sample photo to the last bit. On an x86 CPU without VNNI
    (this one) a single saturated pair would show; the usual int8 weights differed here by up to ~50."""
    ort = pytest.importorskip("onnxruntime")
    from vision.imageio import open_photo
    from vision.proposer import tile_blob
    from vision.quantize import unsigned_weights

    safe = _pair_safe_detector(tmp_path)
    exact = tmp_path / "u8.onnx"
    assert unsigned_weights(safe, exact) == 63
    img = open_photo(Path(__file__).resolve().parents[2] / "assets" / "sample.jpg", long_side=1280).image
    x = tile_blob(img, (-(-img.shape[0] // 32) * 32, -(-img.shape[1] // 32) * 32))
    runs = [ort.InferenceSession(str(p), providers=["CPUExecutionProvider"]).run(None, {"images": x})
            for p in (safe, exact)]
    for a, b in zip(*runs, strict=True):
        np.testing.assert_array_equal(a, b)


def _dequantised(path: Path) -> dict[str, np.ndarray]:
    m = onnx.load(str(path))
    inits = {t.name: numpy_helper.to_array(t) for t in m.graph.initializer}
    out = {}
    for n in m.graph.node:
        if n.op_type == "DequantizeLinear" and n.input[0] in inits and len(n.input) == 3:
            w, s, z = (inits[k] for k in n.input)
            axis = next((a.i for a in n.attribute if a.name == "axis"), 1)
            shape = [1] * w.ndim
            if s.ndim:
                shape[axis] = -1
            out[n.input[0]] = (w.astype(np.int32) - z.astype(np.int32).reshape(shape)) * s.reshape(shape)
    return out


def test_unsigned_weights_keep_every_value_and_every_answer(tmp_path):
    """int8 weights re-stored as uint8 dequantise to the same numbers, and the model gives the same
    outputs (onnxruntime without graph fusion computes QDQ in float: no kernel choice involved)."""
    ort = pytest.importorskip("onnxruntime")
    quantization = pytest.importorskip("onnxruntime.quantization")

    rng = np.random.default_rng(0)
    feeds = [{"crops": rng.random((8, 3, 40, 40), dtype=np.float32)} for _ in range(4)]

    class Reader(quantization.CalibrationDataReader):
        def __init__(self):
            self.it = iter(feeds)

        def get_next(self):
            return next(self.it, None)

    signed = tmp_path / "s8.onnx"
    quantization.quantize_static(
        str(TINY), str(signed), Reader(), quant_format=quantization.QuantFormat.QDQ,
        activation_type=quantization.QuantType.QUInt8, weight_type=quantization.QuantType.QInt8,
        per_channel=True)
    assert onnx.TensorProto.INT8 in _weight_types(signed)

    from vision.quantize import unsigned_weights

    unsigned = tmp_path / "u8.onnx"
    assert unsigned_weights(signed, unsigned) > 0
    assert onnx.TensorProto.INT8 not in _weight_types(unsigned)
    a, b = _dequantised(signed), _dequantised(unsigned)
    assert a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)

    opts = ort.SessionOptions()
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    x = rng.random((16, 3, 40, 40), dtype=np.float32)
    runs = [ort.InferenceSession(str(p), opts, providers=["CPUExecutionProvider"]).run(None, {"crops": x})[0]
            for p in (signed, unsigned)]
    np.testing.assert_array_equal(runs[0], runs[1])
    assert unsigned_weights(unsigned) == 0  # already converted: nothing to do


def test_pair_safe_weights_requantise_from_the_float_model(tmp_path):
    """On a small classifier: every pair within 128 (checked by `pair_sums`), biases follow the new
    scales (onnxruntime still fuses every conv: same answers as the exact kernels), and the model still
    gives the float model's answers about as closely as the usual int8 weights do."""
    ort = pytest.importorskip("onnxruntime")
    quantization = pytest.importorskip("onnxruntime.quantization")
    from vision.quantize import pair_safe_weights, pair_sums, unsigned_weights

    rng = np.random.default_rng(1)
    feeds = iter([{"crops": rng.random((8, 3, 40, 40), dtype=np.float32)} for _ in range(4)])

    class Reader(quantization.CalibrationDataReader):
        def get_next(self):
            return next(feeds, None)

    usual = tmp_path / "s8.onnx"
    quantization.quantize_static(
        str(TINY), str(usual), Reader(), quant_format=quantization.QuantFormat.QDQ,
        activation_type=quantization.QuantType.QUInt8, weight_type=quantization.QuantType.QInt8,
        per_channel=True)
    safe = tmp_path / "safe.onnx"
    assert pair_safe_weights(usual, TINY, safe) > 0
    assert pair_safe_weights(usual, None, tmp_path / "own.onnx") > 0  # from its own weights
    m = onnx.load(str(safe))
    inits = {t.name: numpy_helper.to_array(t) for t in m.graph.initializer}
    weights = [inits[n.input[0]] for n in m.graph.node if n.op_type == "DequantizeLinear"
               and n.input[0] in inits and inits[n.input[0]].dtype == np.int8 and inits[n.input[0]].ndim > 1]
    assert weights and all(pair_sums(w).max() <= 128 for w in weights)
    before = {t.name: numpy_helper.to_array(t) for t in onnx.load(str(usual)).graph.initializer}
    scales = [k for k in inits if k.endswith("_scale") and k.removesuffix("_scale") + "_quantized" in inits
              and inits[k.removesuffix("_scale") + "_quantized"].dtype == np.int8]
    assert scales and all((inits[k] >= before[k] * (1 - 1e-6)).all() for k in scales)  # never finer
    exact = tmp_path / "exact.onnx"
    unsigned_weights(safe, exact)
    x = rng.random((16, 3, 40, 40), dtype=np.float32)
    run = {p.name: ort.InferenceSession(str(p), providers=["CPUExecutionProvider"]).run(None, {"crops": x})[0]
           for p in (TINY, usual, safe, exact)}
    np.testing.assert_array_equal(run["safe.onnx"], run["exact.onnx"])
    err_safe = np.abs(run["safe.onnx"] - run[TINY.name]).max()
    err_usual = np.abs(run["s8.onnx"] - run[TINY.name]).max()
    assert err_safe < 2 * err_usual + 1e-3, (err_safe, err_usual)
