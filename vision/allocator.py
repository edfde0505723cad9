"""Re-run a CPU training command under a caching allocator (tcmalloc or jemalloc) when one is installed.

Why: PyTorch's CPU allocator hands every large activation back to glibc's malloc, which gives it
back to the kernel (munmap) and faults it in afresh on the next step; on the sandboxed 2-core
training machine those page faults were two thirds of the time. A YOLOv8s forward and backward pass
at batch 16 x 640 px took 27-51 s under glibc and 13-15 s under tcmalloc or jemalloc, which keep
the memory mapped. The allocator is preloaded by re-executing the command (it must be in place
before the interpreter starts); Debian and Ubuntu ship it as `libtcmalloc-minimal4` or
`libjemalloc2`. Without one the command runs as it is.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path

LIBRARIES = ("libtcmalloc_minimal.so.4", "libtcmalloc.so.4", "libjemalloc.so.2")
LIBRARY_DIRS = ("/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib",
                "/usr/local/lib")
OFF_ENV = "CARDS_NO_PRELOAD"  # set (to anything) to run under the system's malloc


def caching_allocator(dirs: Sequence[str | Path] = LIBRARY_DIRS) -> Path | None:
    """The first installed allocator of `LIBRARIES` (in that order) found in `dirs`, or None."""
    for name in LIBRARIES:
        for d in dirs:
            p = Path(d) / name
            if p.is_file():
                return p
    return None


def rerun_with_allocator(module: str, argv: Sequence[str], dirs: Sequence[str | Path] = LIBRARY_DIRS) -> None:
    """Replace this process by ``python -m module argv`` with a caching allocator preloaded.

    Returns (and the caller goes on as it is) when there is none, off Linux, when one is already
    preloaded, or when `OFF_ENV` is set; the re-executed command gets `OFF_ENV`, so it never loops.
    """
    preload = os.environ.get("LD_PRELOAD", "")
    if not sys.platform.startswith("linux") or os.environ.get(OFF_ENV) or "malloc" in preload:
        return
    lib = caching_allocator(dirs)
    if lib is None:
        return
    print(f"training under {lib.name} (a caching allocator; {OFF_ENV}=1 to run without)", flush=True)
    env = dict(os.environ, LD_PRELOAD=":".join(p for p in (str(lib), preload) if p), **{OFF_ENV: "1"})
    os.execve(sys.executable, [sys.executable, "-m", module, *argv], env)
