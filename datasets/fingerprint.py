"""A short hash of the scene generator's own source, to name cached generated sets by.

Why: the benchmarks generate their scenes once into ``cache/bench/`` and reuse them while the folder
exists. When the generator changed between sessions, an old folder kept being measured as if it were
the current generator's output (session 4 found figures that moved with no model or geometry change
once the cache was rebuilt). Folder names that carry this fingerprint make a stale set impossible:
a changed generator writes a new folder. The fetched designs are part of it too: a checkout without
them renders procedural faces only, a different set under the same seed. So are the system's fonts
the procedural faces are drawn in: installing a font package (Debian's chromium brings
fonts-liberation, whose LiberationSerif is a held-out family) deals other faces under the same seed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path

from .faces import first_use, stored_names
from .synth.fonts import rank_fonts

PACKAGE = Path(__file__).resolve().parent
SOURCES = ("synth", "faces")  # what decides the pixels and labels of a generated scene


def generator_fingerprint(root: Path = PACKAGE, length: int = 8, designs: Sequence[str] | None = None,
                          fonts: Sequence[str] | None = None) -> str:
    """Hex digest over the generator's .py and .js sources (names and contents, sorted), the names
    of the designs it can deal (`designs`, default: those fetched into the cache) and the file names
    of the fonts it draws procedural faces in (`fonts`, default: the system's, `rank_fonts`).

    >>> len(generator_fingerprint()) == 8 and generator_fingerprint() == generator_fingerprint()
    True
    """
    h = hashlib.sha1()
    for sub in SOURCES:
        for path in sorted((root / sub).rglob("*")):
            if path.suffix in (".py", ".js") and "__pycache__" not in path.parts:
                h.update(path.relative_to(root).as_posix().encode())
                h.update(b"\0")
                h.update(path.read_bytes())
                h.update(b"\0")
    h.update(",".join(stored_names() if designs is None else designs).encode())
    h.update(b"\0")
    h.update(",".join(Path(f).name for f in (rank_fonts() if fonts is None else fonts)).encode())
    return h.hexdigest()[:length]


def benchmark_fingerprint() -> str:
    """The fingerprint a benchmark names its generated set by, once the designs are fetched (the first
    time, as `python -m datasets.faces` does): a fresh checkout measures the same scenes as any other."""
    first_use(fetch=True)
    return generator_fingerprint()
