"""The YOLOv8 Detect head's post-processing in numpy, for a model whose graph stops before it.

Why: an Ultralytics ONNX export bakes the anchor grid of its input size into the graph (constants of
8,400 anchors for 640x640), so it can only read 640x640 inputs. Cut before that post-processing
(`vision.whole_photo`), the same network takes any input size, and each part of the working photo is
read in one pass: one pass over a 1216x912 photo costs 1.13 Mpx of convolutions, where four
overlapping 640 inputs would cost 1.64 Mpx. What the cut leaves is done here, only for the anchors
that pass the score threshold:
the class sigmoid, the distribution-focal-loss expectation (a softmax over `reg_max` bins per box side)
and the anchor-relative box.

The result: xyxy boxes in input pixels, top scores, score rows. For a 640x640 input it equals the
uncut export's output (tested to float rounding).

>>> import numpy as np
>>> box = np.zeros((1, 64, 21), np.float32); cls = np.full((1, 1, 21), -9.0, np.float32)
>>> box[0, [0, 16, 2 * 16 + 3, 3 * 16 + 1], 5] = 50.0  # anchor 5: left 0, top 0, right 3, bottom 1 cells
>>> cls[0, 0, 5] = 4.0
>>> b, s, p = decode_raw(box, cls, (32, 32), (8, 16, 32), conf=0.5)
>>> b.round(1).tolist(), [round(float(v), 3) for v in s]  # anchor 5 is cell (1, 1) of the 4x4 stride-8 grid
([[12.0, 12.0, 36.0, 20.0]], [0.982])
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

REG_MAX = 16  # DFL bins per box side in every YOLOv8 / YOLO11 Detect head
STRIDES = (8, 16, 32)  # P3, P4, P5
#: The outputs of a model cut before its head's post-processing (`vision.whole_photo`): 1 x 4*reg_max x N
#: box distributions and 1 x nc x N class logits; `vision.detector` recognises such a model by them.
OUTPUTS = ("box_dist", "cls_logits")


def anchor_grid(hw: tuple[int, int], strides: Sequence[int] = STRIDES) -> tuple[np.ndarray, np.ndarray]:
    """Anchor centres (N x 2, in grid cells) and their strides (N), in the order the head flattens them.

    A level's grid has ceil(H / s) x ceil(W / s) cells (a stride-2 convolution rounds up), row-major,
    P3 first: what Ultralytics' `make_anchors` traces into an export.
    """
    h, w = hw
    pts, st = [], []
    for s in strides:
        gh, gw = -(-h // s), -(-w // s)
        yy, xx = np.mgrid[0:gh, 0:gw]
        pts.append(np.column_stack([xx.ravel(), yy.ravel()]).astype(np.float32) + 0.5)
        st.append(np.full(gh * gw, s, np.float32))
    return np.concatenate(pts), np.concatenate(st)


def decode_raw(
    box_dist: np.ndarray, cls_logits: np.ndarray, hw: tuple[int, int], strides: Sequence[int] = STRIDES,
    conf: float = 0.25,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Raw head outputs (1 x 4*reg_max x N, 1 x nc x N) of an `hw` input to boxes, top scores, score rows.

    Boxes are xyxy input pixels; only anchors whose best class score reaches `conf` are decoded.
    """
    logits = cls_logits.reshape(cls_logits.shape[-2], -1)
    n = logits.shape[1]
    pts, st = anchor_grid(hw, strides)
    if len(pts) != n:
        raise ValueError(f"head has {n} anchors but a {hw[0]}x{hw[1]} input makes {len(pts)} at strides "
                         f"{tuple(strides)}: the model's strides or input size are not what it was cut for")
    top_logit = logits.max(axis=0)
    # sigmoid is monotonic: compare logits with the threshold's logit, decode only what passes
    cut = -np.inf if conf <= 0 else (np.inf if conf >= 1 else float(np.log(conf / (1 - conf))))
    idx = np.flatnonzero(top_logit >= cut)
    probs = (1.0 / (1.0 + np.exp(-logits[:, idx].T.astype(np.float64)))).astype(np.float32)
    reg = box_dist.reshape(-1, n)
    bins = reg.shape[0] // 4
    d = reg[:, idx].T.reshape(-1, 4, bins).astype(np.float64)
    e = np.exp(d - d.max(axis=2, keepdims=True))
    dist = (e * np.arange(bins)).sum(axis=2) / e.sum(axis=2)  # expected distance, in cells, per side
    p, s = pts[idx].astype(np.float64), st[idx, None].astype(np.float64)
    boxes = np.column_stack([p - dist[:, :2], p + dist[:, 2:]]) * s
    return boxes.astype(np.float32), probs.max(axis=1), probs
