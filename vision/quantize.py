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

Calibration: the fixed-size export (640 x 640) is calibrated on model-sized tiles spread evenly over
each image, overlapping by `CALIB_OVERLAP`, fed as the runtime feeds a window (`vision.proposer.tile_blob`),
from synthetic training tiles and real photos of the finetune half only; `vision.whole_photo` then
cuts the quantised graph for any input size without touching its scales.

Weights are stored as uint8 with zero point 128 (`unsigned_weights`), not int8: the same values, but
onnxruntime then runs uint8 x uint8 kernels. Its uint8 x int8 kernels on x86 CPUs without VNNI (AVX2
only, e.g. AMD EPYC Milan) add pairs of products in int16 with saturation (`vpmaddubsw`): on such a
machine the int8-weight models read the sample photo as 119 indices in five seats instead of 63 in
four. With VNNI both kernels compute exactly, and uint8 x int8 runs about 2.5x faster: the last step
writes each model's int8-stored copy (`--signed-copy`), which `vision.sessions` reads there.
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
from tqdm import tqdm

from vision.crops import crops_to_blob
from vision.holdout import in_test_half
from vision.int8 import SIGNED_FROM, STORED_UINT8, signed_copy_path
from vision.proposer import tile_blob
from vision.sessions import file_sha1

HEAD_PREFIX = "/model.22/"  # the Detect module in an Ultralytics YOLOv8 export
#: What `unsigned_weights` appends to a model's `quantization` note.
UINT8_SUFFIX = " (weights stored uint8, zero point 128)"
STORED_NOTE = "(stored uint8, zero point 128)"  # how the notes `vision.quantize` writes say it
DETECTOR_NOTE = (f"int8 QDQ, per-channel weights {STORED_NOTE}; Detect post-processing "
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


CALIB_OVERLAP = 64
"""Calibration tiles of one image overlap by this much (working pixels; the tallest index is ~40)."""


def tile_origins(length: int, tile: int, overlap: int) -> list[int]:
    """Start offsets of tiles covering `length`, evenly spread, each overlapping by >= `overlap`.

    >>> tile_origins(500, 640, 64), tile_origins(1280, 640, 64), tile_origins(1216, 640, 64)
    ([0], [0, 320, 640], [0, 576])
    """
    if length <= tile:
        return [0]
    overlap = min(overlap, tile // 2)
    n = math.ceil((length - overlap) / (tile - overlap))
    return [round(i * (length - tile) / (n - 1)) for i in range(n)]


def calibration_tiles(folders: list[Path], n: int, size: tuple[int, int], seed: int = 0) -> list[np.ndarray]:
    """Up to `n` NCHW float blobs, a random spread of images, every tile of each (`tile_origins`)."""
    paths = [p for f in folders for p in sorted(f.glob("*.jpg")) if not in_test_half(p)]
    rng = np.random.default_rng(seed)
    th, tw = size
    overlap = CALIB_OVERLAP
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

    m = onnx.load(str(path))
    changed = _shift_weights(m, onnx.TensorProto.INT8, np.uint8, 128)
    for prop in m.metadata_props:  # the note says how the weights are stored
        if prop.key == "quantization" and changed and STORED_UINT8 not in prop.value:
            prop.value += UINT8_SUFFIX
    onnx.save(m, str(out or path))
    return changed


def signed_copy(path: Path) -> Path:
    """Write the int8-stored copy of a uint8-stored model (`vision.int8.signed_copy_path`): weights
    and zero points - 128, the same dequantised numbers, read with onnxruntime's faster uint8 x int8
    kernels where the CPU has VNNI (`vision.sessions`). The copy records the SHA-1 of `path`, so a
    copy left behind by a re-quantised model is not read. Refuses a model with no uint8 weights."""
    import onnx

    m = onnx.load(str(path))
    if not _shift_weights(m, onnx.TensorProto.UINT8, np.int8, -128):
        raise SystemExit(f"{path}: no uint8-stored weights with zero point 128 to re-store as int8")
    for prop in m.metadata_props:
        if prop.key == "quantization":
            prop.value = prop.value.replace(UINT8_SUFFIX, "").replace(STORED_NOTE, "(stored int8)")
    meta = {p.key: p for p in m.metadata_props}
    prop = meta.get(SIGNED_FROM) or m.metadata_props.add()
    prop.key, prop.value = SIGNED_FROM, file_sha1(path)
    out = signed_copy_path(path)
    onnx.save(m, str(out))
    return out


def _shift_weights(m, dtype: int, to: type, shift: int) -> int:
    """Re-store in place the QDQ weights of ONNX type `dtype` as numpy `to`, `shift` added to them and to
    their zero points, so that every dequantised weight stays the same; uint8 weights only where their
    zero points are 128 (the symmetric int8 weights the quantiser made). Returns the count."""
    import onnx
    from onnx import numpy_helper

    inits = {t.name: t for t in m.graph.initializer}
    changed = 0
    for node in m.graph.node:
        if node.op_type != "DequantizeLinear" or len(node.input) < 3:
            continue
        w, zp = inits.get(node.input[0]), inits.get(node.input[2])
        if w is None or zp is None or w.data_type != dtype:
            continue
        if dtype == onnx.TensorProto.UINT8 and np.any(numpy_helper.to_array(zp) != 128):
            continue
        for t in (w, zp):
            v = numpy_helper.to_array(t).astype(np.int16) + shift
            t.CopyFrom(numpy_helper.from_array(v.astype(to), t.name))
        changed += 1
    return changed


def quantize_classifier(
    model: Path, out: Path, npz_files: list[Path], n_crops: list[int], seed: int = 0
) -> Path:
    """int8 (QDQ, per-channel weights) index classifier, calibrated on `n_crops[i]` crops drawn at
    random (`seed`) from `npz_files[i]` (`x`: N x S x S x 3 BGR uint8, as `datasets.crops` writes).

    Calibration is min/max over the crops: which crops are drawn moves the real finetune half's F1
    by up to ~0.005, so the shipped draw is named in `models/MODEL_CARD.md`."""
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
                       f"int8 QDQ, per-channel weights {STORED_NOTE}, every layer")


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
    p.add_argument("--signed-copy", action="store_true", help="only write the int8-stored copy of a "
                   "uint8-stored --model (name.s8.onnx, read where the CPU has VNNI; every run writes it)")
    args = p.parse_args(argv)
    t = time.time()
    if args.unsigned_only or args.signed_copy:
        if args.unsigned_only:
            print(f"{args.model}: {unsigned_weights(args.model)} weight tensors re-stored as uint8")
        print(f"wrote {signed_copy(args.model)}")
        return 0
    if args.classifier:
        out = quantize_classifier(args.model, args.out, args.calib, args.crops, args.seed)
    else:
        out = quantize(args.model, args.out, args.calib, args.tiles)
    print(f"wrote {out} ({out.stat().st_size / 1e6:.1f} MB) and {signed_copy(out)} in {time.time() - t:.0f}s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
