"""Turn a fixed-size detector export into one that reads a whole working photo in one pass (extra `train`).

    python -m vision.whole_photo --model models/cards.onnx            # in place
    python -m vision.whole_photo --model models/cards.onnx --out models/cards.whole.onnx

Why: the Ultralytics export's Detect head ends in constants made for its 640x640 input (8,400 anchor
centres and strides, a reshape to 8,400), so it reads a 1216x912 photo only as four overlapping 640
tiles: 1.64 Mpx of convolutions for 1.11 Mpx of photo, plus merging the tiles' boxes and dropping
boxes cut by a seam. Everything before those constants is convolutions, which take any
input size. This cuts the graph where the head's three levels are concatenated (box distributions,
class logits), makes the input's height and width free, and leaves the rest to numpy
(`vision.yolo_head`): on this 2-core CPU one 928x1216 pass costs ~470 ms against ~700 ms for the
four tiles (time is linear in pixels, ~41.5 ms per 100 kpx, whatever the shape).

Nothing is re-quantised or re-trained: the same nodes with the same weights and the same int8 scales
compute the same numbers, so a 640x640 input gives the uncut model's output to float rounding
(`tests/vision/test_whole_photo.py`), and the calibration the shipped model was measured with stands.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from vision.int8 import STORED_UINT8
from vision.quantize import signed_copy
from vision.yolo_head import OUTPUTS, REG_MAX, STRIDES

HEAD = "/model.22/"  # the Detect module of an Ultralytics YOLOv8 export
BOX_CONCAT = HEAD + "Concat_output_0"  # 1 x 4*reg_max x N: the levels' box distributions
CLS_CONCAT = HEAD + "Concat_1_output_0"  # 1 x nc x N: the levels' class logits (before the sigmoid)


def cut_head(src: Path, out: Path | None = None) -> Path:
    """Write `src` cut before the head's post-processing, with a free input height and width.

    Refuses a model that is not an uncut Ultralytics Detect export (already cut, another head).
    """
    import onnx
    from onnx import TensorProto, helper

    m = onnx.load(str(src))
    g = m.graph
    if [o.name for o in g.output] == list(OUTPUTS):
        raise SystemExit(f"{src} is already cut for whole photos")
    produced = {o for n in g.node for o in n.output}
    if BOX_CONCAT not in produced or CLS_CONCAT not in produced:
        raise SystemExit(f"{src}: no YOLOv8 Detect head concatenations ({BOX_CONCAT}, {CLS_CONCAT})")
    rename = {BOX_CONCAT: OUTPUTS[0], CLS_CONCAT: OUTPUTS[1]}
    nc = _channels(g, CLS_CONCAT)
    # the nodes the two tensors depend on, in graph order; the post-processing after them goes
    need, keep = set(rename), []
    for node in reversed(list(g.node)):
        if any(o in need for o in node.output):
            keep.append(node)
            need.update(i for i in node.input if i)
    keep.reverse()
    for node in keep:
        for k, o in enumerate(node.output):
            node.output[k] = rename.get(o, o)
    used = {i for n in keep for i in n.input}
    inits = [t for t in g.initializer if t.name in used]
    del g.node[:]
    g.node.extend(keep)
    del g.initializer[:]
    g.initializer.extend(inits)
    del g.value_info[:]  # every intermediate shape was inferred for 640x640
    del g.output[:]
    g.output.extend([
        helper.make_tensor_value_info(OUTPUTS[0], TensorProto.FLOAT, [1, 4 * REG_MAX, "anchors"]),
        helper.make_tensor_value_info(OUTPUTS[1], TensorProto.FLOAT, [1, nc, "anchors"]),
    ])
    dims = g.input[0].type.tensor_type.shape.dim
    for k, name in ((2, "height"), (3, "width")):
        dims[k].Clear()
        dims[k].dim_param = name
    meta = {p.key: p for p in m.metadata_props}
    for key, value in (("strides", ",".join(map(str, STRIDES))), ("head", "cut before post-processing "
                       "(vision.whole_photo): outputs box_dist, cls_logits; any input size, multiple of 32")):
        prop = meta.get(key) or m.metadata_props.add()
        prop.key, prop.value = key, value
    onnx.checker.check_model(m)
    out = out or src
    onnx.save(m, str(out))
    return out


def _channels(graph, tensor: str) -> int:
    """Class count: the class-logit reshapes' target shape is [1, nc, -1]."""
    from onnx import numpy_helper

    consts = {n.output[0]: n for n in graph.node if n.op_type == "Constant"}
    inits = {t.name: t for t in graph.initializer}
    concat = next(n for n in graph.node if tensor in n.output)
    reshape = next(n for n in graph.node if n.output[0] == concat.input[0])
    shape_name = reshape.input[1]
    if shape_name in inits:
        shape = numpy_helper.to_array(inits[shape_name])
    else:
        shape = numpy_helper.to_array(consts[shape_name].attribute[0].t)
    return int(shape[1])


def _stored_uint8(path: Path) -> bool:
    import onnx

    props = onnx.load(str(path)).metadata_props
    return any(p.key == "quantization" and STORED_UINT8 in p.value for p in props)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--model", type=Path, default=Path("models/cards.onnx"))
    p.add_argument("--out", type=Path, default=None, help="default: rewrite --model in place")
    args = p.parse_args(argv)
    out = cut_head(args.model, args.out)
    print(f"wrote {out} ({out.stat().st_size / 1e6:.1f} MB): whole photos in one pass")
    if _stored_uint8(out):  # a quantised model: its int8-stored copy must be cut the same way
        print(f"wrote {signed_copy(out)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
