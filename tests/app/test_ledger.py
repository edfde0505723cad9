"""The ledger keeps every round across connections, threads and restarts; undo and CSV behave."""

from __future__ import annotations

import csv
import io
import sqlite3
import threading
from pathlib import Path

import pytest

from ledger import LEDGER_ENV, Ledger, LedgerConflict, default_path, report

TABLE = {"rules": "taiwan", "players": [{"name": "A", "head": "As Kd 2c"}, {"name": "B", "head": "Qs Jd 3c"}]}


def test_record_survives_a_new_handle(tmp_path: Path) -> None:
    path = tmp_path / "l.sqlite3"
    first = Ledger(path)
    r = first.record(TABLE, {"A": 3, "B": -3})
    assert r.id == 1 and r.rules == "taiwan"
    again = Ledger(path)  # a restarted server opens the file afresh
    [back] = again.rounds()
    assert back.table == TABLE and back.totals == {"A": 3, "B": -3}


def test_wal_mode_is_on(tmp_path: Path) -> None:
    led = Ledger(tmp_path / "l.sqlite3")
    with sqlite3.connect(led.path) as con:
        assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_undo_last_and_conflict(tmp_path: Path) -> None:
    led = Ledger(tmp_path / "l.sqlite3")
    r1 = led.record(TABLE, {"A": 1, "B": -1})
    r2 = led.record(TABLE, {"A": -4, "B": 4})
    with pytest.raises(LedgerConflict):
        led.undo_last(expected_id=r1.id)  # this view had not seen r2
    assert led.undo_last(expected_id=r2.id).id == r2.id
    assert [r.id for r in led.rounds()] == [r1.id]
    assert led.undo_last().id == r1.id
    assert led.undo_last() is None
    with pytest.raises(LedgerConflict):
        led.undo_last(expected_id=r1.id)


def test_two_tabs_writing_concurrently(tmp_path: Path) -> None:
    """Two sessions (threads, each with its own handle) record at once: nothing lost, nothing broken."""
    path = tmp_path / "l.sqlite3"
    tabs = [Ledger(path), Ledger(path)]
    errors: list[BaseException] = []

    def play(led: Ledger, sign: int) -> None:
        try:
            for _ in range(40):
                led.record(TABLE, {"A": sign, "B": -sign})
                led.rounds()
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=play, args=(t, s)) for t, s in zip(tabs, (1, -1), strict=True)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    rounds = Ledger(path).rounds()
    assert len(rounds) == 80
    assert report.running_totals(rounds) == {"A": 0, "B": 0}
    with sqlite3.connect(path) as con:
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_settings_roundtrip(tmp_path: Path) -> None:
    led = Ledger(tmp_path / "l.sqlite3")
    assert led.get_setting("seat_names", ["x"]) == ["x"]
    led.set_setting("seat_names", ["阿明", "Bea"])
    led.set_setting("seat_names", ["阿明", "Bea", "Cy"])
    assert Ledger(led.path).get_setting("seat_names") == ["阿明", "Bea", "Cy"]


def test_env_var_sets_the_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(LEDGER_ENV, str(tmp_path / "sub" / "mine.sqlite3"))
    assert default_path() == tmp_path / "sub" / "mine.sqlite3"
    assert Ledger().path.exists()


def test_report_frames_and_csv(tmp_path: Path) -> None:
    led = Ledger(tmp_path / "l.sqlite3")
    led.record(TABLE, {"A": 3, "B": -3})
    led.record({"rules": "taiwan", "players": []}, {"A": -1, "B": 2, "C": -1})
    rounds = led.rounds()
    assert report.players(rounds) == ["A", "B", "C"]
    assert report.running_totals(rounds) == {"A": 2, "B": -1, "C": -1}
    cum = report.cumulative_frame(rounds)
    assert cum["A"].tolist() == [0, 3, 2] and cum["C"].tolist() == [0, 0, -1]
    assert report.rounds_frame(rounds)["B"].tolist() == [-3, 2]
    lines = list(csv.reader(io.StringIO(report.to_csv(rounds))))
    assert lines[0] == ["round", "recorded_at", "rules", "A", "B", "C"]
    assert lines[-1] == ["total", "", "", "2", "-1", "-1"]
