"""Hostile input to the app and its files: formulas in the CSV export, a ledger file that cannot be
opened, a round recorded twice after a restart, Markdown and huge tokens echoed back, grey photos."""

from __future__ import annotations

import csv
import io
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from streamlit.testing.v1 import AppTest

import vision
from appui import engine, photo
from appui.table import name_problems
from appui.text import literal
from ledger import Ledger, private_path, report
from ledger.store import Round
from tests.app.conftest import ROOT, SAMPLE
from vision.types import Problem, TableRead

APP = str(ROOT / "app.py")
ROWS = ("head", "middle", "tail")
FORMULAS = ['=HYPERLINK("http://x.example","x")', "=1+1", "+1", "-1+2", "@SUM(A1)", "\tx", "\rx"]


def start() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60).run()
    assert not at.exception, at.exception
    return at


def typing(at: AppTest) -> AppTest:
    """Typed entry: its row fields are drawn once the page has switched to it."""
    at.radio(key="mode").set_value("manual").run()
    assert not at.exception, at.exception
    return at


def fill(at: AppTest, players: list[dict]) -> AppTest:
    typing(at)
    for i, p in enumerate(players):
        for r in ROWS:
            at.text_input(key=f"txt_{i}_{r}").set_value(p[r])
    return at.run()


def texts(elements) -> str:
    return "\n".join(str(e.value) for e in elements)


# ---------------------------------------------------------------- CSV export


def test_csv_export_neutralises_formulas() -> None:
    totals = {name: (3 if i % 2 else -3) for i, name in enumerate([*FORMULAS, "阿明"])}
    rounds = [Round(1, "2026-12-01T20:00:00+00:00", "=cmd|' /C calc'!A0", {}, totals)]
    rows = list(csv.reader(io.StringIO(report.to_csv(rounds))))
    header = rows[0][3:]
    assert header == ["'" + n for n in FORMULAS] + ["阿明"]
    assert rows[1][2] == "'=cmd|' /C calc'!A0"
    assert rows[1][3:] == [str(v) for v in totals.values()]  # scores stay numbers, -3 included
    assert rows[2][0] == "total" and rows[2][3] == "-3"
    for row in rows:
        for cell in row:
            assert not cell.startswith(report.FORMULA_START) or cell.lstrip("-").isdigit(), cell


def test_spreadsheet_safe_leaves_plain_text_and_numbers() -> None:
    assert [report.spreadsheet_safe(c) for c in ("East", "", -5, 0, "a=b")] == ["East", "", -5, 0, "a=b"]


# ---------------------------------------------------------------- the ledger fallback


def test_private_ledger_is_private_and_new_each_time() -> None:
    a, b = private_path(), private_path()
    assert a.parent != b.parent
    assert stat.S_IMODE(a.parent.stat().st_mode) == 0o700


def test_private_ledger_goes_when_the_process_stops(tmp_path: Path) -> None:
    code = ("from ledger import Ledger, private_path; p = private_path(); "
            "Ledger(p).record({'rules': 'taiwan'}, {'A': 1, 'B': -1}); print(p)")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          timeout=60, check=True)
    path = Path(done.stdout.strip())
    assert path.name == "ledger.sqlite3" and not path.parent.exists()


def test_app_with_an_unopenable_ledger_says_the_truth(tmp_path: Path, monkeypatch) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("SHISANSHUI_LEDGER", str(blocker / "ledger.sqlite3"))
    at = fill(start(), SAMPLE["players"])
    message = texts(at.error)
    assert "could not be opened" in message and "private temporary file of this server alone" in message
    assert "deleted when it stops" in message
    at.button(key="record").click().run()
    assert "Round 1 recorded" in texts(at.success)
    caption = texts(at.caption)
    assert "shisanshui-ledger-" in caption and "shisanshui-fallback-ledger" not in caption


# ---------------------------------------------------------------- after a restart


def test_restart_shows_the_last_round_and_asks_before_recording_it_twice(ledger_path: Path) -> None:
    at = fill(start(), SAMPLE["players"])
    at.button(key="record").click().run()
    assert "Round 1 recorded" in texts(at.success)
    [first] = Ledger(ledger_path).rounds()

    again = fill(start(), SAMPLE["players"])  # the server restarted; the same table typed again
    when = first.recorded_at.replace("T", " ")[:19]
    assert f"Last round recorded: round 1, {when} UTC: 东 East +8" in texts(again.caption)
    warning = texts(again.warning)
    assert "This exact table is already the last round recorded (round 1" in warning
    assert again.button(key="record").label == "记账 Record it again"
    again.button(key="record").click().run()
    assert len(Ledger(ledger_path).rounds()) == 2 and "Round 2 recorded" in texts(again.success)


def test_a_different_table_records_without_asking(ledger_path: Path) -> None:
    Ledger(ledger_path).record({"rules": "taiwan", "players": []}, {"A": 1, "B": -1})
    at = fill(start(), SAMPLE["players"])
    assert "already the last round" not in texts(at.warning)
    assert at.button(key="record").label == "记账 Record this round"
    assert "Last round recorded: round 1" in texts(at.caption)


def test_names_in_the_last_round_are_shown_literally(ledger_path: Path) -> None:
    Ledger(ledger_path).record({"rules": "taiwan"}, {"**A**": 1, ":red[B]": -1})
    caption = texts(start().caption)
    assert r"\*\*A\*\* +1, \:red\[B\] -1" in caption


# ---------------------------------------------------------------- tokens echoed back


def test_markdown_token_is_shown_literally() -> None:
    err = engine.parse_row("As **x** 2c").error
    assert err is not None and err.startswith(r"“\*\*x\*\*” is not a card")


def test_huge_token_is_shortened() -> None:
    err = engine.parse_row("As " + "Q" * 5000 + " 2c").error
    assert err is not None and len(err) < 400 and "QQQQQQQQQQ" in err


def test_long_token_names_its_length() -> None:
    err = engine.parse_row("As " + "Xy" * 100).error
    assert err is not None and "(200 characters)" in err and len(err) < 200


def test_literal_escapes_every_markdown_character() -> None:
    assert literal("a_b*c`d[e](f)#g") == r"a\_b\*c\`d\[e\]\(f\)\#g"
    assert literal("x" * 30) == "x" * 20 + "… (30 characters)"
    assert literal("two\nlines") == "two lines"


def test_bad_token_in_the_app_is_escaped(ledger_path: Path) -> None:
    at = typing(start())
    at.text_input(key="txt_0_head").set_value("As **bold** 2c")
    at.text_input(key="txt_0_middle").set_value("As " + "Z" * 500).run()
    notes = texts(at.caption)
    assert r"“\*\*bold\*\*” is not a card" in notes
    assert "Z" * 21 not in notes and "(500 characters)" in notes


# ---------------------------------------------------------------- grey photos, jokers


def test_grey_photo_note_and_no_jokers_asked(monkeypatch) -> None:
    seen: dict = {}

    def grey_read(image, *, seats=None, jokers=None, **_: object) -> TableRead:
        seen["jokers"] = jokers
        return TableRead([], [Problem("grey_photo", "the photo has no colour, so red suits cannot be told")])

    monkeypatch.setattr(vision, "read", grey_read)
    result = photo.read((ROOT / "assets" / "sample.jpg").read_bytes())
    assert seen["jokers"] == 0
    assert result.notes == ["The photo has no colour, so red suits cannot be told."]


def test_a_suit_read_twice_tells_where_the_five_player_game_is_set(monkeypatch) -> None:
    """The reader's table-wide note that one suit is read twice says how to answer it in the app;
    a seat's own problems stay with that seat."""
    hint = Problem("added_suit", "5 ♠ cards are read twice: if this is the five-player game (65 cards), "
                   "give the reader its added suit, ♠; otherwise they are misreads")
    seat = Problem("changed", "Seat 2 tail: read 9s, but that card is already on the table", 1, "tail", "9c")
    monkeypatch.setattr(vision, "read", lambda image, **_: TableRead([], [hint, seat]))
    result = photo.read((ROOT / "assets" / "sample.jpg").read_bytes())
    assert result.notes == ["5 ♠ cards are read twice: if this is the five-player game (65 cards), give the "
                            "reader its added suit, ♠; otherwise they are misreads (here: the sidebar's rule "
                            "options, 五人 Five players and its added suit)."]


def test_real_names_export_unchanged() -> None:
    """The CSV of real names is what it was: only cells that would run are touched."""
    names = [p["name"] for p in SAMPLE["players"]]
    rounds = [Round(1, "2026-12-01T20:00:00+00:00", "taiwan", {}, dict.fromkeys(names, 0))]
    assert next(csv.reader(io.StringIO(report.to_csv(rounds))))[3:] == names


@pytest.mark.parametrize("name", FORMULAS[:2])
def test_seat_named_as_a_formula_exports_safely(ledger_path: Path, name: str) -> None:
    led = Ledger(ledger_path)
    led.record({"rules": "taiwan"}, {name: 2, "B": -2})
    header = next(csv.reader(io.StringIO(report.to_csv(led.rounds()))))
    assert header[3] == "'" + name


@settings(max_examples=100, deadline=None, derandomize=True)
@given(st.text(st.characters(codec=None, exclude_categories=()), max_size=80))
def test_any_typed_row_parses_or_says_why_literally(text: str) -> None:
    """Whatever is typed: cards, or one message with no Markdown character left unescaped."""
    parsed = engine.parse_row(text)
    if parsed.error is None:
        assert all(isinstance(c, str) and len(c) == 2 for c in parsed.cards)
    else:
        quoted = parsed.error.split("”")[0]
        assert all(quoted[i - 1] == "\\" for i, ch in enumerate(quoted) if ch in "*_`[]" and i > 0)
        assert len(parsed.error) < 400


# ---------------------------------------------------------------- seat names as typed

ODD_NAMES = ["**x**", "=1+1", ":red[B]", "阿明"]
SHOWN = [r"\*\*x\*\*", r"\=1\+1", r"\:red\[B\]", "阿明"]


def named(at: AppTest, names: list[str]) -> AppTest:
    for i, n in enumerate(names):
        at.sidebar.text_input(key=f"name_{i}").set_value(n)
    return at.run()


def test_seat_names_are_shown_literally(ledger_path: Path) -> None:
    """Names are Markdown nowhere: totals, the who-wins table, the itemised pairs, the seat headers,
    the ledger's running totals; the banker list offers them as typed (its options are plain text)."""
    at = fill(named(start(), ODD_NAMES), SAMPLE["players"])
    assert not at.exception, at.exception
    assert [m.label for m in at.main.metric] == SHOWN  # the round's totals, settled under these names
    assert all(m.value for m in at.main.metric)
    [who_wins] = at.table
    assert list(who_wins.value.index) == SHOWN and list(who_wins.value.columns)[:4] == SHOWN
    pages = texts(at.markdown)
    assert r"**\*\*x\*\* vs \=1\+1: \*\*x\*\* " in pages  # the itemised pair's heading
    for i, shown in enumerate(SHOWN):
        assert f'<span id="seat-{i}"></span>**{shown}**' in pages  # each seat's header
    assert "**x**" not in pages.replace(r"\*\*x\*\*", "")
    assert at.sidebar.selectbox(key="opt_banker_luosong").options == ["(none)", *ODD_NAMES]
    at.button(key="record").click().run()
    assert [m.label for m in at.main.metric][-4:] == SHOWN  # the ledger's running totals


def test_a_repeated_odd_name_is_quoted_literally(ledger_path: Path) -> None:
    at = named(start(), ["**x**", "**x**", "B", "C"])
    assert r"Two seats are called “\*\*x\*\*”" in texts(at.warning)
    assert name_problems(["=1+1", "=1+1"]) == (
        r"Two seats are called “\=1\+1”: give each seat its own name in the sidebar."
    )


def test_the_engine_s_reason_names_a_seat_literally(ledger_path: Path) -> None:
    players = [dict(p) for p in SAMPLE["players"]]
    players[3]["head"] = "Qs 5s 4h"  # Qs is also the first seat's
    at = fill(named(start(), ODD_NAMES), players)
    errors = texts(at.error)
    assert "cannot be settled" in errors and "Qs" in errors
    assert r"\*\*x\*\*" in errors and "**x**" not in errors.replace(r"\*\*x\*\*", "")
