"""Regenerate tiny_det.onnx: a stand-in for the shipped index finder, cut for whole photos.

Like `models/cards.onnx` after `vision.whole_photo`: input `images` 1x3xHxW (any size, a multiple of
32), outputs `box_dist` 1x64xN and `cls_logits` 1x1xN over the anchors of strides 8, 16 and 32, and
the metadata names {0: 'item'} and strides "8,16,32". What it finds: at stride 8 only, every 8x8
cell whose mean colour leans red or blue (logit 16 * (R - 2 G + B) - 8: a pure red or blue cell
0.9997, white, black or grey 0.0003, under the runtime's box threshold 0.001), each as a 32x32 box
centred on the cell (every side 2 cells). Strides 16 and 32 find nothing. Run with a Python that has
`onnx` (the project venv has it):
    python tests/data/vision/make_tiny_onnx.py
"""

from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

CH = 64 + 1  # 4 sides x 16 DFL bins, then the one class
inits = [numpy_helper.from_array(np.array([1, CH, -1], np.int64), "shape")]
nodes = []
for s in (8, 16, 32):
    w = np.zeros((CH, 3, 1, 1), np.float32)
    b = np.zeros(CH, np.float32)
    b[[2, 18, 34, 50]] = 20.0  # each side's distance: bin 2 (2 cells)
    if s == 8:
        w[64, :, 0, 0] = [16.0, -32.0, 16.0]  # of the cell's mean R, G, B (the input is RGB)
        b[64] = -8.0
    else:
        b[64] = -20.0
    inits += [numpy_helper.from_array(w, f"w{s}"), numpy_helper.from_array(b, f"b{s}")]
    nodes += [
        helper.make_node("AveragePool", ["images"], [f"m{s}"], kernel_shape=[s, s], strides=[s, s]),
        helper.make_node("Conv", [f"m{s}", f"w{s}", f"b{s}"], [f"p{s}"], kernel_shape=[1, 1]),
        helper.make_node("Reshape", [f"p{s}", "shape"], [f"f{s}"]),
    ]
inits += [numpy_helper.from_array(np.array(v, np.int64), k) for k, v in
          {"s0": [0], "s64": [64], "s65": [65], "ax": [1]}.items()]
nodes += [
    helper.make_node("Concat", ["f8", "f16", "f32"], ["all"], axis=2),
    helper.make_node("Slice", ["all", "s0", "s64", "ax"], ["box_dist"]),
    helper.make_node("Slice", ["all", "s64", "s65", "ax"], ["cls_logits"]),
]
graph = helper.make_graph(
    nodes,
    "tiny_det",
    [helper.make_tensor_value_info("images", TensorProto.FLOAT, [1, 3, "height", "width"])],
    [helper.make_tensor_value_info("box_dist", TensorProto.FLOAT, [1, 64, "anchors"]),
     helper.make_tensor_value_info("cls_logits", TensorProto.FLOAT, [1, 1, "anchors"])],
    inits,
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
model.ir_version = 8
for key, value in {"names": "{0: 'item'}", "strides": "8,16,32"}.items():
    p = model.metadata_props.add()
    p.key, p.value = key, value
onnx.checker.check_model(model)
onnx.save(model, Path(__file__).with_name("tiny_det.onnx"))
