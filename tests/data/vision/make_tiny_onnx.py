"""Regenerate tiny_det.onnx: a 64x96-input stand-in with the Ultralytics output layout (1, 58, 4).

Its output ignores the pixels (constant + 0 * mean(input)), which is all the loading, input-shape
reading and decoding path needs. Run with a Python that has `onnx` (the train venv):
    /work/venvs/train/bin/python tests/data/vision/make_tiny_onnx.py
"""

from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

raw = np.zeros((1, 58, 4), np.float32)
raw[0, :4, 0] = [20, 30, 10, 16]  # As at (15, 22)-(25, 38), 0.9
raw[0, 4 + 0, 0] = 0.9
raw[0, :4, 1] = [21, 31, 10, 16]  # overlapping weaker box (suppressed by NMS)
raw[0, 4 + 0, 1] = 0.6
raw[0, :4, 2] = [70, 40, 12, 18]  # Kh at (64, 31)-(76, 49), 0.8
raw[0, 4 + 14, 2] = 0.8
raw[0, 4 + 1, 2] = 0.1
raw[0, :4, 3] = [50, 10, 10, 10]  # below the confidence threshold
raw[0, 4 + 5, 3] = 0.05

nodes = [
    helper.make_node("ReduceMean", ["images"], ["m"], keepdims=0),
    helper.make_node("Mul", ["m", "zero"], ["z"]),
    helper.make_node("Add", ["const", "z"], ["output0"]),
]
graph = helper.make_graph(
    nodes,
    "tiny_det",
    [helper.make_tensor_value_info("images", TensorProto.FLOAT, [1, 3, 64, 96])],
    [helper.make_tensor_value_info("output0", TensorProto.FLOAT, [1, 58, 4])],
    [numpy_helper.from_array(raw, "const"), numpy_helper.from_array(np.zeros((), np.float32), "zero")],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
model.ir_version = 8
onnx.checker.check_model(model)
onnx.save(model, Path(__file__).with_name("tiny_det.onnx"))

# the same model, saying it was trained at a smaller working scale (vision.detector reads this)
model.metadata_props.add(key="working_long_side", value="832")
model.metadata_props.add(key="tile_overlap", value="48")
onnx.save(model, Path(__file__).with_name("tiny_det_832.onnx"))
