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
