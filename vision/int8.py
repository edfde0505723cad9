"""Whether an int8 model can run exactly on this CPU.

onnxruntime's uint8 x int8 kernels on x86 CPUs without VNNI (AVX2 only, e.g. AMD EPYC Milan) add
pairs of products in int16 with saturation: a model whose weights are stored as int8 then misreads
(the sample photo: 119 indices in five seats instead of 63 in four). `vision.quantize` stores weights
as uint8 (zero point 128: exact, with the slower uint8 x uint8 kernels) and says so in the model's
`quantization` metadata; an int8 model without that note is refused on such a CPU, with the command
that converts it, instead of reading wrongly. Where the CPU has VNNI, the same weights stored int8
(a model's signed copy, `signed_copy_path`) run faster; `vision.sessions` picks the file to read.
"""

from __future__ import annotations

import platform
from pathlib import Path

STORED_UINT8 = "stored uint8"  # what `vision.quantize` writes into the `quantization` metadata
#: Metadata key of an int8-stored copy (`signed_copy_path`): the SHA-1 of the uint8-stored file it
#: was made from (`vision.quantize.signed_copy`).
SIGNED_FROM = "signed_from"


class Int8WeightsError(ValueError):
    """An int8 model this CPU would compute wrongly (see the module docstring)."""


def check_int8(session, path: Path | None) -> None:
    """Raise `Int8WeightsError` when `saturation_risk` finds one."""
    if (risk := saturation_risk(session, path)) is not None:
        raise Int8WeightsError(risk)


def signed_copy_path(path: Path) -> Path:
    """Where the int8-stored copy of a uint8-stored model lies: `cards.onnx` -> `cards.s8.onnx`.

    >>> signed_copy_path(Path("models/cards.onnx")).as_posix()
    'models/cards.s8.onnx'
    """
    path = Path(path)
    return path.with_name(f"{path.stem}.s8{path.suffix}")


def has_vnni(cpuinfo: Path = Path("/proc/cpuinfo")) -> bool | None:
    """True/False on an x86 Linux machine (VNNI flags in /proc/cpuinfo), None where it cannot be told
    or does not apply (other systems; ARM's int8 dot products do not saturate)."""
    if platform.machine().lower() not in ("x86_64", "amd64"):
        return None
    try:
        text = cpuinfo.read_text()
    except OSError:
        return None
    lines = (line for line in text.splitlines() if line.startswith("flags"))
    flags = next((line.split(":", 1)[1].split() for line in lines), None)
    if flags is None:
        return None
    return any(f in flags for f in ("avx512_vnni", "avx_vnni"))


def saturation_risk(session, path: Path | None, vnni: bool | None | str = "detect") -> str | None:
    """Why this int8 session would read wrongly on this CPU, or None when it is safe: a model whose
    metadata says int8 without uint8-stored weights, on an x86 CPU without VNNI.
    `vnni`: what the CPU has ("detect": `has_vnni()`; None: unknown, taken as safe)."""
    note = session.get_modelmeta().custom_metadata_map.get("quantization", "")
    if "int8" not in note or STORED_UINT8 in note:
        return None
    if (has_vnni() if vnni == "detect" else vnni) is not False:
        return None
    name = path or "this model"
    return (f"{name} stores int8 weights, which onnxruntime cannot compute exactly on this CPU (x86 without "
            f"VNNI): re-store them as uint8 first: python -m vision.quantize --unsigned-only --model {name}")
