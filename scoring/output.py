"""What the command line writes: answers that always encode, errors of bounded length, and a reader
that stops reading (`... | head`) treated as the end of the answer rather than as a failure.

Shared by every `python -m scoring` subcommand so each keeps the exit-code contract (0 settled or
legal, 1 foul, 2 invalid) whatever it is asked to print and wherever it prints it.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any, TextIO

EXIT_OK, EXIT_FOUL, EXIT_INVALID = 0, 1, 2
MAX_MESSAGE = 1000
"""The longest error message written: a message says what and where, it never echoes a whole input."""


def shorten(message: str, limit: int = MAX_MESSAGE) -> str:
    return message if len(message) <= limit else message[: limit - 1] + "…"


def invalid(message: str) -> dict[str, str]:
    """The answer for input that cannot be read or settled."""
    return {"error": "invalid", "message": shorten(message)}


def json_text(obj: Any, compact: bool = False) -> str:
    return json.dumps(obj, ensure_ascii=False, indent=None if compact else 2)


def write(text: str, out: TextIO | None = None, *, fallback: str | None = None) -> None:
    """`text` and a newline on `out` (standard output by default).

    A stream that cannot encode a character (an ASCII-only terminal) gets `fallback` when given
    (the JSON-escaped form of the same answer) or the text with that character escaped. A closed
    pipe ends the output quietly: the reader took what it wanted."""
    out = out if out is not None else sys.stdout
    try:
        try:
            out.write(text + "\n")
        except UnicodeEncodeError:
            encoding = getattr(out, "encoding", None) or "ascii"
            safe = text.encode(encoding, "backslashreplace").decode(encoding)
            out.write((fallback if fallback is not None else safe) + "\n")
        out.flush()
    except BrokenPipeError:
        silence(out)


def emit_json(obj: Any, compact: bool = False, out: TextIO | None = None) -> None:
    """`obj` as JSON; `\\u` escapes where the stream cannot take a character as it is."""
    write(json_text(obj, compact), out,
          fallback=json.dumps(obj, ensure_ascii=True, indent=None if compact else 2))


def silence(out: TextIO) -> None:
    """Point `out` at the null device, so what is still buffered (and the flush at exit) goes
    nowhere instead of raising `BrokenPipeError` a second time."""
    try:
        fd = out.fileno()
    except (AttributeError, OSError, ValueError):
        return  # an in-memory stream: nothing to flush at exit
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fd)
    os.close(devnull)
