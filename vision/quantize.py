"""Static int8 quantisation of the detector's ONNX models (onnxruntime's own tools; extra `train`).

    python -m vision.quantize --model models/cards.fp32.onnx --out models/cards.onnx \\
        --calib /work/train/data/v1/train/images --calib /work/train/crops/real_ft/images
    python -m vision.quantize --classifier --model models/index_classifier.fp32.onnx \\
        --out models/index_classifier.onnx --calib /work/train/crops/c5/val.npz --crops 512 \\
        --calib /work/train/crops/hard3.npz --crops 256

(`models/cards.fp32.onnx` is what `python -m vision.export` writes; the classifier's float export is
what `python -m vision.train_classifier --onnx` writes.)

The classifier: calibrated on crops as the training set holds them (`datasets.crops` / `datasets.
proposals` .npz, background included), every layer int8. Why: it reads a few hundred crops a photo,
and at 56 px it took ~45% of the time from file to table; int8 reads them ~2.4x faster.

Why the head stays in float: YOLOv8's ONNX output is one tensor that concatenates box coordinates
(0..640 pixels) with class probabilities (0..1). Quantised with one scale, a step of ~2.5 wipes every
probability to zero (the first attempt, in `benchmarks.pipeline`, lost every detection). Everything
after the Detect head's last convolutions (reshapes, DFL softmax, sigmoid, the concatenations) is
therefore excluded; the convolutions, where the time goes, are int8 (QDQ, per-channel weights).

Calibration: model-sized tiles cut the way the runtime cuts them (`vision.detector.tile_origins`),
from synthetic training tiles and real photos of the finetune half only.

Weights are stored as uint8 with zero point 128 (`unsigned_weights`), not int8: the same values, but
onnxruntime then runs uint8 x uint8 kernels. Its uint8 x int8 kernels on x86 CPUs without VNNI (AVX2
only, e.g. AMD EPYC Milan) add pairs of products in int16 with saturation (`vpmaddubsw`): on such a
machine the int8-weight models read the sample photo as 119 indices in five seats instead of 63 in
four. With VNNI both kernels compute exactly, so the numbers are the same there (the speed of
uint8 x uint8 on such a machine has not been measured).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
from tqdm import tqdm

from vision.int8 import PAIR_SAFE, STORED_UINT8

HEAD_PREFIX = "/model.22/"  # the Detect module in an Ultralytics YOLOv8 export
#: What `unsigned_weights` appends to a model's `quantization` note (`pair_safe_weights` takes it off).
UINT8_SUFFIX = " (weights stored uint8, zero point 128)"
DETECTOR_NOTE = ("int8 QDQ, per-channel weights (stored uint8, zero point 128); Detect post-processing "
                 "in float")


def float_nodes(model_path: Path) -> list[str]:
    """Nodes to keep in float: the Detect head's post-processing (not its convolutions)."""
    import onnx

    graph = onnx.load(str(model_path)).graph
    keep = []
    for node in graph.node:
        if not node.name.startswith(HEAD_PREFIX):
            continue
        # the head's convs (cv2.*, cv3.*) quantise fine; the DFL conv is a fixed 0..15 expectation
        is_head_conv = node.op_type == "Conv" and "/dfl/" not in node.name
        if not is_head_conv:
            keep.append(node.name)
    return keep


def calibration_tiles(folders: list[Path], n: int, size: tuple[int, int], seed: int = 0) -> list[np.ndarray]:
    """Up to `n` NCHW float blobs, a random spread of images, every tile of each as the runtime cuts it."""
    from datasets.real import in_test_half
    from vision.detector import TileConfig, tile_blob, tile_origins

    paths = [p for f in folders for p in sorted(f.glob("*.jpg")) if not in_test_half(p)]
    rng = np.random.default_rng(seed)
    th, tw = size
    overlap = TileConfig().overlap
    blobs: list[np.ndarray] = []
    for i in rng.permutation(len(paths)):
        img = cv2.imread(str(paths[i]))
        if img is None:
            continue
        H, W = img.shape[:2]
        for y in tile_origins(H, th, overlap):
            for x in tile_origins(W, tw, overlap):
                blobs.append(tile_blob(img[y : y + th, x : x + tw], size))
        if len(blobs) >= n:
            break
    return blobs[:n]


def quantize(model: Path, out: Path, folders: list[Path], n_tiles: int = 64) -> Path:
    import onnxruntime as ort

    sess = ort.InferenceSession(str(model), providers=["CPUExecutionProvider"])
    inp = sess.get_inputs()[0]
    size = (int(inp.shape[2]), int(inp.shape[3]))
    blobs = calibration_tiles(folders, n_tiles, size)
    if not blobs:
        raise SystemExit(f"no calibration images found in {[str(f) for f in folders]}")
    return static_int8(model, out, [{inp.name: b} for b in blobs], "tile", float_nodes, DETECTOR_NOTE)


def static_int8(
    model: Path, out: Path, feeds: list[dict], unit: str, exclude: Callable[[Path], list[str]] | None,
    note: str,
) -> Path:
    """The one int8 recipe both models share: shape pre-processing, static QDQ calibrated on `feeds`
    (uint8 activations, per-channel int8 weights), the nodes `exclude` names (from the pre-processed
    graph) left in float, and the source model's metadata carried over with `note`."""
    from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static
    from onnxruntime.quantization.shape_inference import quant_pre_process

    class Reader(CalibrationDataReader):
        def __init__(self) -> None:
            self.it = iter(tqdm(feeds, desc="calibrating", unit=unit))

        def get_next(self):
            return next(self.it, None)

    out.parent.mkdir(parents=True, exist_ok=True)
    pre = out.with_suffix(".pre.onnx")
    quant_pre_process(str(model), str(pre), skip_symbolic_shape=True)
    quantize_static(
        str(pre), str(out), Reader(), quant_format=QuantFormat.QDQ, activation_type=QuantType.QUInt8,
        weight_type=QuantType.QInt8, per_channel=True, nodes_to_exclude=exclude(pre) if exclude else None,
    )
    pre.unlink(missing_ok=True)
    unsigned_weights(out)
    copy_metadata(model, out, note)
    return out


def unsigned_weights(path: Path, out: Path | None = None) -> int:
    """Re-store a QDQ model's int8 weights as uint8 (value + 128, zero point + 128), in place or to
    `out`: every dequantised weight is the same number, but onnxruntime picks its uint8 x uint8
    kernels, which do not saturate on CPUs without VNNI (see the module docstring). Returns how many
    weight tensors changed (0 for a model already converted)."""
    import onnx
    from onnx import numpy_helper

    m = onnx.load(str(path))
    inits = {t.name: t for t in m.graph.initializer}
    changed = 0
    for node in m.graph.node:
        if node.op_type != "DequantizeLinear" or len(node.input) < 3:
            continue
        w, zp = inits.get(node.input[0]), inits.get(node.input[2])
        if w is None or zp is None or w.data_type != onnx.TensorProto.INT8:
            continue
        for t in (w, zp):
            v = numpy_helper.to_array(t).astype(np.int16) + 128
            t.CopyFrom(numpy_helper.from_array(v.astype(np.uint8), t.name))
        changed += 1
    for prop in m.metadata_props:  # the note says how the weights are stored
        if prop.key == "quantization" and changed and STORED_UINT8 not in prop.value:
            prop.value += UINT8_SUFFIX
    onnx.save(m, str(out or path))
    return changed


#: What the uint8 x int8 kernels of x86 without VNNI add in int16 (`vpmaddubsw`): two neighbouring
#: products u * w with u <= 255. With |w1| + |w2| <= 128 the pair stays within 255 * 128 = 32,640,
#: under the int16 limit of 32,767, so nothing saturates.
PAIR_LIMIT = 128


def pair_sums(q: np.ndarray) -> np.ndarray:
    """Per output channel (axis 0) the largest |w1| + |w2| over the weight pairs the kernels may add.

    Conv weights (O x I x kh x kw) are packed taps-major, input channels fastest (NHWC), and paired
    along the input channels; an odd channel count (the first layer's RGB) shifts the pairing across
    taps, so there every neighbour in both orders counts. Gemm weights: neighbours along the inputs.
    """
    a = np.abs(np.asarray(q, np.float64))
    o = a.shape[0]
    if a.ndim == 4 and a.shape[1] % 2 == 0:
        t = a.transpose(0, 2, 3, 1)
        return (t[..., 0::2] + t[..., 1::2]).reshape(o, -1).max(axis=1)
    orders = [a.reshape(o, -1)]
    if a.ndim == 4:
        orders.append(a.transpose(0, 2, 3, 1).reshape(o, -1))
    return np.max([(f[:, :-1] + f[:, 1:]).max(axis=1) if f.shape[1] > 1 else f.max(axis=1) for f in orders],
                  axis=0)


def pair_safe_weights(path: Path, float_model: Path | None = None, out: Path | None = None) -> int:
    """Re-quantise a QDQ model's Conv/Gemm/MatMul weights from the float model it came from (or, with
    None, from its own dequantised weights and biases) as int8 (zero point 0, per output channel) at
    the finest scale where every pair the kernels add in int16 stays within `PAIR_LIMIT`
    (`pair_sums`); the int32 biases follow the new scales. In place or to `out`; returns how many
    weight tensors were written.

    Why: uint8-stored weights (`unsigned_weights`) are exact but run onnxruntime's slower uint8 x uint8
    kernels; int8 weights quantised the usual way (|w| up to 127) saturate on x86 without VNNI. Here
    the scale is max pair sum / 128 instead of max |w| / 127, ~0.36 bit coarser on average (7-bit
    weights would lose a whole bit), and the uint8 x int8 kernels compute exactly: the detector's
    YOLO runs ~28% faster on this AVX2 machine and gives the uint8 x uint8 kernels' answer to the last
    bit (`tests/vision/test_model_weights.py`). Activation scales and zero points are untouched.
    Not shipped (session 7): the re-rounded detector read the real test half at F1 0.950 against
    0.959 (`models/MODEL_CARD.md`).
    """
    import onnx
    from onnx import numpy_helper

    m = onnx.load(str(path))
    g = m.graph
    inits = {t.name: t for t in g.initializer}
    dq = {n.output[0]: n for n in g.node if n.op_type == "DequantizeLinear"}
    if float_model is not None:
        floats = {t.name: numpy_helper.to_array(t) for t in onnx.load(str(float_model)).graph.initializer}
    else:
        floats = {}
        for n in dq.values():  # the weights and biases as this model computes them
            if n.input[0] in inits and len(n.input) == 3:
                q, sc, zp = (numpy_helper.to_array(inits[k]) for k in n.input)
                axis = next((a.i for a in n.attribute if a.name == "axis"), 1) if q.ndim > 1 else 0
                shape = [1] * q.ndim
                if sc.ndim:
                    shape[axis] = -1
                floats[n.input[0].removesuffix("_quantized")] = (
                    (q.astype(np.float64) - zp.astype(np.float64).reshape(shape)) * sc.reshape(shape))
    written = 0
    for node in g.node:
        weighted = node.op_type in ("Conv", "Gemm", "MatMul") and len(node.input) > 1
        wdq = dq.get(node.input[1]) if weighted else None
        if wdq is None or wdq.input[0] not in inits or len(wdq.input) < 3:
            continue
        w_t, s_t, z_t = (inits[k] for k in wdq.input)
        base = wdq.input[0].removesuffix("_quantized")
        if base not in floats:
            raise SystemExit(f"{float_model} has no weight {base} ({node.name}): not {path}'s float model")
        axis = next((a.i for a in wdq.attribute if a.name == "axis"), 1)
        w = np.moveaxis(np.asarray(floats[base], np.float64), axis, 0)
        old = numpy_helper.to_array(s_t).astype(np.float64).reshape(-1)
        shape = [-1] + [1] * (w.ndim - 1)
        peak = np.abs(w).reshape(len(w), -1).max(axis=1)
        scale = np.maximum(pair_sums(w) / PAIR_LIMIT, peak / 127)  # and |w| <= 127
        scale[peak == 0] = 1.0  # an all-zero channel: any scale (onnxruntime's own choice)
        for _ in range(100):  # rounding can push a pair one step over: widen those channels a little
            q = np.round(w / scale.reshape(shape))
            over = (pair_sums(q) > PAIR_LIMIT) | (np.abs(q).reshape(len(q), -1).max(axis=1) > 127)
            if not over.any():
                break
            scale[over] *= 1.002
        else:
            raise RuntimeError(f"{node.name}: no pair-safe scale found")
        w_t.CopyFrom(numpy_helper.from_array(np.moveaxis(q, 0, axis).astype(np.int8), w_t.name))
        z_t.CopyFrom(numpy_helper.from_array(np.zeros(numpy_helper.to_array(z_t).shape, np.int8), z_t.name))
        s_t.CopyFrom(numpy_helper.from_array(scale.astype(np.float32).reshape(numpy_helper.to_array(s_t).shape),
                                             s_t.name))
        if len(node.input) > 2 and node.input[2] in dq:  # bias scale = input scale x weight scale
            bdq = dq[node.input[2]]
            b_t, bs_t = inits[bdq.input[0]], inits[bdq.input[1]]
            b_scale = numpy_helper.to_array(bs_t).astype(np.float64) / old * scale
            b = np.asarray(floats[bdq.input[0].removesuffix("_quantized")], np.float64)
            b_t.CopyFrom(numpy_helper.from_array(np.round(b / b_scale).astype(np.int32), b_t.name))
            bs_t.CopyFrom(numpy_helper.from_array(b_scale.astype(np.float32), bs_t.name))
        written += 1
    for prop in m.metadata_props:
        if prop.key == "quantization":
            prop.value = (prop.value.replace(UINT8_SUFFIX, "")
                          .replace("weights (stored uint8, zero point 128)", "weights"))
            if PAIR_SAFE not in prop.value:  # what vision.int8 accepts on a CPU without VNNI
                prop.value += f"; {PAIR_SAFE} (|w1| + |w2| <= {PAIR_LIMIT}, vision.quantize.pair_sums)"
    onnx.save(m, str(out or path))
    return written


def quantize_classifier(
    model: Path, out: Path, npz_files: list[Path], n_crops: list[int], seed: int = 0
) -> Path:
    """int8 (QDQ, per-channel weights) index classifier, calibrated on `n_crops[i]` crops drawn at
    random (`seed`) from `npz_files[i]` (`x`: N x S x S x 3 BGR uint8, as `datasets.crops` writes).

    Calibration is min/max over the crops: which crops are drawn moves the real finetune half's F1
    by up to ~0.005, so the shipped draw is named in `models/CLASSIFIER.md`."""
    from vision.classifier import crops_to_blob

    if len(n_crops) != len(npz_files):
        raise SystemExit(f"one --crops count per --calib file: {len(npz_files)} files, {len(n_crops)} counts")
    rng = np.random.default_rng(seed)
    crops: list[np.ndarray] = []
    for f, n in zip(npz_files, n_crops, strict=True):
        x = np.load(f)["x"]
        crops.extend(x[rng.choice(len(x), min(n, len(x)), replace=False)])
    if not crops:
        raise SystemExit(f"no calibration crops in {[str(f) for f in npz_files]}")
    feeds = [{"crops": crops_to_blob(crops[i : i + 64])} for i in range(0, len(crops), 64)]
    return static_int8(model, out, feeds, "batch", None,
                       "int8 QDQ, per-channel weights (stored uint8, zero point 128), every layer")


def copy_metadata(src: Path, dst: Path, note: str = DETECTOR_NOTE) -> None:
    """Class names and working scale travel with the model (the runtime refuses a model without)."""
    import onnx

    a, b = onnx.load(str(src)), onnx.load(str(dst))
    have = {p.key for p in b.metadata_props}
    for p in a.metadata_props:
        if p.key not in have:
            q = b.metadata_props.add()
            q.key, q.value = p.key, p.value
    q = b.metadata_props.add()
    q.key, q.value = "quantization", note
    onnx.save(b, str(dst))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--model", type=Path, default=Path("models/cards.fp32.onnx"))
    p.add_argument("--out", type=Path, default=Path("models/cards.onnx"))
    p.add_argument("--calib", type=Path, action="append", default=[],
                   help="a folder of .jpg (repeat); with --classifier, a crops .npz (repeat)")
    p.add_argument("--tiles", type=int, default=64)
    p.add_argument("--classifier", action="store_true", help="quantise the index classifier instead")
    p.add_argument("--crops", type=int, action="append", default=[],
                   help="classifier: crops drawn from each --calib file, in order (repeat)")
    p.add_argument("--seed", type=int, default=0, help="classifier: which crops are drawn")
    p.add_argument("--unsigned-only", action="store_true", help="only re-store an int8 model's weights as "
                   "uint8 (in place: --model), no calibration")
    p.add_argument("--pair-safe", type=Path, metavar="FLOAT_MODEL", help="only re-quantise the int8 model's "
                   "(--model, in place) weights from FLOAT_MODEL as pair-safe int8, no calibration")
    args = p.parse_args(argv)
    t = time.time()
    if args.unsigned_only:
        print(f"{args.model}: {unsigned_weights(args.model)} weight tensors re-stored as uint8")
        return 0
    if args.pair_safe:
        n = pair_safe_weights(args.model, args.pair_safe)
        print(f"{args.model}: {n} weight tensors re-quantised as pair-safe int8 from {args.pair_safe}")
        return 0
    if args.classifier:
        out = quantize_classifier(args.model, args.out, args.calib, args.crops, args.seed)
    else:
        out = quantize(args.model, args.out, args.calib, args.tiles)
    print(f"wrote {out} ({out.stat().st_size / 1e6:.1f} MB) in {time.time() - t:.0f}s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
