"""onnxruntime CPU sessions for the shipped models, on the weights that run fastest here.

An int8 model ships as two files that compute the same numbers: `name.onnx`, weights stored uint8
(exact on every x86 CPU, `vision.int8`), and `name.s8.onnx`, the same weights stored int8
(`vision.int8.signed_copy_path`). On a CPU with VNNI onnxruntime's uint8 x int8 kernels run the
int8-stored copy about 2.5x faster than the uint8 x uint8 ones (the proposer's 1440 px pass, the
namer's batch of 256 crops); without VNNI those kernels saturate, so there only `name.onnx` is read.
The copy is taken only when its metadata names the exact file it was made from, so a model
re-quantised without re-making its copy is read from `name.onnx`, with a warning; `$CARDS_INT8_COPIES=0`
reads `name.onnx` everywhere.
"""

from __future__ import annotations

import hashlib
import os
import warnings
from pathlib import Path

from .int8 import SIGNED_FROM, check_int8, has_vnni, signed_copy_path

COPIES_ENV = "CARDS_INT8_COPIES"  # "0": never read the int8-stored copies


def file_sha1(path: Path) -> str:
    """The hex SHA-1 of a file's bytes: what a signed copy records of its source."""
    return hashlib.sha1(Path(path).read_bytes()).hexdigest()


def weights_for_cpu(path: Path, vnni: bool | None | str = "detect") -> Path:
    """The file to read `path`'s model from on this CPU: its int8-stored copy where the CPU has VNNI
    and the copy exists, else `path` itself. `vnni`: what the CPU has ("detect": `has_vnni()`, unless
    `$CARDS_INT8_COPIES` is `0`: a CPU that reports VNNI wrongly, or timing the uint8-stored files)."""
    if vnni == "detect":
        vnni = has_vnni() and os.environ.get(COPIES_ENV, "1") != "0"
    fast = signed_copy_path(path)
    if vnni is True and fast.exists():
        return fast
    return Path(path)


def open_session(path: Path, threads: int):
    """A CPU session on `path`'s model, on the weights `weights_for_cpu` picks, int8 checked against
    this CPU (`vision.int8.check_int8`)."""
    path = Path(path)
    chosen = weights_for_cpu(path)
    if chosen != path:
        session = _session(chosen, threads)
        if session.get_modelmeta().custom_metadata_map.get(SIGNED_FROM) == file_sha1(path):
            return session
        warnings.warn(f"{chosen} was not made from {path} as it is now: reading {path} (slower here); "
                      f"re-make the copy: python -m vision.quantize --signed-copy --model {path}",
                      stacklevel=2)
    session = _session(path, threads)
    check_int8(session, path)
    return session


def _session(path: Path, threads: int):
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    return ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
