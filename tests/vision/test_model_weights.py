"""The shipped int8 models keep their weights as uint8 (zero point 128): onnxruntime's uint8 x int8
kernels on x86 CPUs without VNNI (AVX2 only) saturate, and read the sample photo as 119 indices in
five seats instead of 63 in four (`vision.quantize.unsigned_weights`)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
from onnx import numpy_helper  # noqa: E402

from vision.classifier import DEFAULT_NAMERS  # noqa: E402
from vision.detector import DEFAULT_MODEL  # noqa: E402

TINY = Path(__file__).parent.parent / "data" / "vision" / "tiny_cls.onnx"


def _weight_types(path: Path) -> set[int]:
    """The element types of the initializers that DequantizeLinear nodes read as weights."""
    m = onnx.load(str(path))
    inits = {t.name: t for t in m.graph.initializer}
    return {inits[n.input[0]].data_type for n in m.graph.node
            if n.op_type == "DequantizeLinear" and n.input[0] in inits}


@pytest.mark.parametrize("model", [DEFAULT_MODEL, *DEFAULT_NAMERS])
def test_shipped_models_store_no_int8_weights(model):
    kinds = _weight_types(model)  # int32: the biases
    assert onnx.TensorProto.UINT8 in kinds and onnx.TensorProto.INT8 not in kinds


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
