"""Regenerate tiny_cls.onnx: a 55-class index-classifier stand-in reading only the crop's mean colour.

logits = k * (mean R, G, B) @ W + b, with dynamic batch and the real model's metadata (`names`,
`crop_size` 40). A red index on a white card (crop mean ~ (1, .7, .7)) reads "Ah", a blue one "As",
white or the grey fill reads "bg" (background). Run with a Python that has `onnx` (the train venv):
    /work/venvs/train/bin/python tests/data/vision/make_tiny_cls.py
"""

from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

K = 40.0
W = np.zeros((3, 55), np.float32)
b = np.zeros(55, np.float32)
W[:, 13] = K * np.array([1, 0, -1])  # Ah: red
W[:, 0] = K * np.array([-1, 0, 1])  # As: blue
b[54] = 6.0  # bg: wins unless the crop leans red or blue (an index fills ~30% of its crop)

names = [r + s for s in "shdc" for r in "AKQJT98765432"] + ["BJ", "SJ", "bg"]
nodes = [
    helper.make_node("ReduceMean", ["crops", "axes"], ["m"], keepdims=0),
    helper.make_node("MatMul", ["m", "W"], ["z"]),
    helper.make_node("Add", ["z", "b"], ["logits"]),
]
graph = helper.make_graph(
    nodes,
    "tiny_cls",
    [helper.make_tensor_value_info("crops", TensorProto.FLOAT, ["batch", 3, 40, 40])],
    [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", 55])],
    [
        numpy_helper.from_array(np.array([2, 3], np.int64), "axes"),
        numpy_helper.from_array(W, "W"),
        numpy_helper.from_array(b, "b"),
    ],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
model.ir_version = 8
for key, value in {"names": repr(names), "crop_size": "40"}.items():
    p = model.metadata_props.add()
    p.key, p.value = key, value
onnx.checker.check_model(model)
onnx.save(model, Path(__file__).with_name("tiny_cls.onnx"))
