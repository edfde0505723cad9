"""`python -m scoring`: the rules engine from the command line, JSON in and JSON out.

Subcommands are registered by small functions (`REGISTRARS`) so more can join without touching
this file's logic: `settle` lives here; the solver's module adds `arrange` and `check`.

Contract of `settle FILE|-`: FILE holds one table or a JSON list of tables; standard output gets
one JSON object per table (a list for a list).  A table is answered by its settlement, by
`{"error": "foul", ...}` when refused for 相公, or by `{"error": "invalid", "message": ...}` when it
cannot be read.  A single table that is refused or invalid exits non-zero (1 foul, 2 invalid); a
list exits 0 and reports each table in its place.  Never a traceback for bad input: a file over
`MAX_INPUT_BYTES` is refused before it is parsed, and what is printed always encodes
(`scoring.output`).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from scoring.arrange import register_cli as register_arrange
from scoring.errors import ScoringError
from scoring.output import EXIT_FOUL, EXIT_INVALID, EXIT_OK, emit_json, invalid, silence
from scoring.settlement import settle
from scoring.table import load_json

MAX_INPUT_BYTES = 32 * 1024 * 1024
"""The largest JSON document read: a table is under a kilobyte, so this is some 40,000 tables."""


def read_json(path: str, stdin: TextIO | None = None) -> Any:
    """The JSON document in `path` (`-`: standard input); `ScoringError` with a clear message."""
    source = "standard input" if path == "-" else repr(path)
    try:
        if path == "-":
            stream = stdin or sys.stdin
            raw = getattr(stream, "buffer", None)
            data = (raw or stream).read(MAX_INPUT_BYTES + 1)
        else:
            with open(path, "rb") as f:
                data = f.read(MAX_INPUT_BYTES + 1)
    except OSError as e:
        raise ScoringError(f"cannot read {source}: {e.strerror or e}") from None
    if len(data) > MAX_INPUT_BYTES:
        raise ScoringError(f"{source} is over {MAX_INPUT_BYTES // 2**20} MB: too large to be tables")
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise ScoringError(f"{source} is not UTF-8 text") from None
    return load_json(data, source)


def settle_one(table: Any) -> tuple[dict[str, Any], int]:
    """One table's answer object and exit status; every input error becomes the `invalid` object."""
    try:
        result = settle(table)
    except ScoringError as e:
        return invalid(e.message), EXIT_INVALID
    except RecursionError:  # absurdly nested JSON
        return invalid("the table is nested too deeply to be a table"), EXIT_INVALID
    return result.to_json(), (EXIT_FOUL if result.rejected else EXIT_OK)


def settle_document(doc: Any) -> tuple[Any, int]:
    """A table or a list of tables → (answer, exit status)."""
    if isinstance(doc, list):
        return [settle_one(t)[0] for t in doc], EXIT_OK
    return settle_one(doc)


def cmd_settle(args: argparse.Namespace) -> int:
    try:
        doc = read_json(args.file)
    except ScoringError as e:
        emit_json(invalid(e.message), args.compact)
        return EXIT_INVALID
    answer, status = settle_document(doc)
    emit_json(answer, args.compact)
    return status


def register_settle(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("settle", help="settle one table or a list of tables (JSON)",
                       description="Settle tables: JSON in (FILE or - for standard input), JSON out.")
    p.add_argument("file", metavar="FILE", help="JSON file with a table or a list of tables; - for stdin")
    p.add_argument("--compact", action="store_true", help="one line of JSON instead of indented")
    p.set_defaults(func=cmd_settle)


REGISTRARS: list[Callable[[argparse._SubParsersAction], None]] = [register_settle, register_arrange]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m scoring",
                                     description="十三张 / 十三水 rules engine: settle tables.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for register in REGISTRARS:
        register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except BrokenPipeError:  # the reader stopped reading mid-answer (`| head`): not an input error
        silence(sys.stdout)
        return EXIT_OK
