"""SQLite storage for recorded rounds and the table's settings (seat names, preset).

Why SQLite: a refreshed page, a closed browser or a restarted server must lose no recorded round,
and two browser tabs (two Streamlit sessions, i.e. two threads) may write the same file. Every write
is one short transaction on its own connection, the database runs in WAL mode with a busy timeout,
so concurrent writers wait for each other instead of failing or corrupting the file.

Undo is a soft delete (`undone_at`), so an undone round can still be inspected in the file, and it
takes the id of the round the user *saw* as the last one: if another tab recorded a newer round
meanwhile, undo refuses instead of removing a round this tab never showed.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import shutil
import sqlite3
import tempfile
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

LEDGER_ENV = "SHISANSHUI_LEDGER"
APP_NAME = "shisanshui"

SCHEMA = """
CREATE TABLE IF NOT EXISTS rounds (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    recorded_at TEXT    NOT NULL,
    rules       TEXT    NOT NULL,
    table_json  TEXT    NOT NULL,
    totals_json TEXT    NOT NULL,
    undone_at   TEXT
);
CREATE INDEX IF NOT EXISTS rounds_live ON rounds (undone_at, id);
CREATE TABLE IF NOT EXISTS settings (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
"""


class LedgerConflict(RuntimeError):
    """The ledger changed under this view (another tab recorded or undid a round)."""


def private_path() -> Path:
    """A ledger file for when the configured one cannot be opened: in a new folder only this user
    can enter (`mkdtemp`, mode 0700), never shared with another server, and removed when this
    process exits, so "kept only until the server stops" is what happens."""
    folder = Path(tempfile.mkdtemp(prefix="shisanshui-ledger-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return folder / "ledger.sqlite3"


def default_path() -> Path:
    """The ledger file: `$SHISANSHUI_LEDGER` if set (tests, shared tables), else the user data dir."""
    env = os.environ.get(LEDGER_ENV, "").strip()
    if env:
        return Path(env).expanduser()
    from platformdirs import user_data_dir

    return Path(user_data_dir(APP_NAME, appauthor=False)) / "ledger.sqlite3"


@dataclass(frozen=True)
class Round:
    """One recorded round: the full table as settled and the totals it produced."""

    id: int
    recorded_at: str
    rules: str
    table: dict[str, Any] = field(compare=False)
    totals: dict[str, int] = field(compare=False)


def _round(row: sqlite3.Row) -> Round:
    table, totals = json.loads(row["table_json"]), json.loads(row["totals_json"])
    return Round(int(row["id"]), row["recorded_at"], row["rules"], table, totals)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class Ledger:
    """A handle on one ledger file. Cheap to create; safe to share between threads.

    Each call opens its own connection (sqlite3 connections must not cross threads by default and
    Streamlit runs every session in its own thread), so there is no shared connection state to guard.
    """

    def __init__(self, path: str | os.PathLike[str] | None = None, *, timeout_s: float = 10.0) -> None:
        self.path = Path(path) if path is not None else default_path()
        self.timeout_s = timeout_s
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._init_lock = threading.Lock()
        with self._init_lock, self._connect() as con:
            con.execute("PRAGMA journal_mode=WAL")
            con.executescript(SCHEMA)

    # -- connection -----------------------------------------------------------------------------
    @contextlib.contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        con = sqlite3.connect(self.path, timeout=self.timeout_s, isolation_level=None)
        try:
            con.execute(f"PRAGMA busy_timeout={int(self.timeout_s * 1000)}")
            con.execute("PRAGMA synchronous=NORMAL")
            con.row_factory = sqlite3.Row
            yield con
        finally:
            con.close()

    @contextlib.contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One IMMEDIATE transaction: takes the write lock up front so read-then-write is atomic."""
        with self._connect() as con:
            con.execute("BEGIN IMMEDIATE")
            try:
                yield con
            except BaseException:
                con.execute("ROLLBACK")
                raise
            con.execute("COMMIT")

    # -- rounds ---------------------------------------------------------------------------------
    def record(self, table: dict[str, Any], totals: dict[str, int], rules: str | None = None) -> Round:
        """Store one settled round; returns it with its id. The table is stored whole, as JSON."""
        if not totals:
            raise ValueError("a round needs totals")
        rules_name = rules if rules is not None else str(table.get("rules", ""))
        clean_totals = {str(k): int(v) for k, v in totals.items()}
        at = _now()
        with self._write() as con:
            cur = con.execute(
                "INSERT INTO rounds (recorded_at, rules, table_json, totals_json) VALUES (?, ?, ?, ?)",
                (at, rules_name, json.dumps(table, ensure_ascii=False), json.dumps(clean_totals)),
            )
            rid = int(cur.lastrowid or 0)
        return Round(rid, at, rules_name, table, clean_totals)

    def rounds(self) -> list[Round]:
        """Every live (not undone) round, oldest first."""
        with self._connect() as con:
            rows = con.execute(
                "SELECT id, recorded_at, rules, table_json, totals_json FROM rounds "
                "WHERE undone_at IS NULL ORDER BY id"
            ).fetchall()
        return [_round(r) for r in rows]

    def last_round(self) -> Round | None:
        live = self.rounds()
        return live[-1] if live else None

    def undo_last(self, expected_id: int | None = None) -> Round | None:
        """Undo the newest live round; None when there is none.

        With `expected_id`, undo only if that is still the newest round, else `LedgerConflict`:
        the caller showed the user a ledger that another tab has since changed.
        """
        with self._write() as con:
            row = con.execute(
                "SELECT id, recorded_at, rules, table_json, totals_json FROM rounds "
                "WHERE undone_at IS NULL ORDER BY id DESC LIMIT 1"
            ).fetchone()
            if row is None:
                if expected_id is not None:
                    raise LedgerConflict("that round was already undone (in another tab?)")
                return None
            if expected_id is not None and row["id"] != expected_id:
                raise LedgerConflict(
                    "the ledger changed in another tab or window; look at it again before undoing"
                )
            con.execute("UPDATE rounds SET undone_at = ? WHERE id = ?", (_now(), row["id"]))
        return _round(row)

    # -- settings -------------------------------------------------------------------------------
    def get_setting(self, key: str, default: Any = None) -> Any:
        """A JSON value stored under `key` (seat names, last preset), or `default`."""
        with self._connect() as con:
            row = con.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        if row is None:
            return default
        try:
            return json.loads(row["value"])
        except json.JSONDecodeError:
            return default

    def set_setting(self, key: str, value: Any) -> None:
        with self._write() as con:
            con.execute(
                "INSERT INTO settings (key, value) VALUES (?, ?) "
                "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                (key, json.dumps(value, ensure_ascii=False)),
            )
