"""The app's flows through Streamlit's AppTest: manual entry, sample photo, correction, 相公,
recording, undo, names kept. Each test uses its own ledger file (SHISANSHUI_LEDGER)."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from ledger import Ledger
from tests.app.conftest import ROOT, SAMPLE

APP = str(ROOT / "app.py")
ROWS = ("head", "middle", "tail")
EXPECTED = dict(zip(("东 East", "南 South", "西 West", "北 North"), (8, 4, 6, -18), strict=True))


def start() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60).run()
    assert not at.exception
    return at


def fill(at: AppTest, players: list[dict]) -> AppTest:
    at.radio(key="mode").set_value("manual").run()  # typing mode draws every row's text field
    for i, p in enumerate(players):
        for r in ROWS:
            at.text_input(key=f"txt_{i}_{r}").set_value(p[r])
    return at.run()


def metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.main.metric}


def texts(elements) -> str:
    return "\n".join(str(e.value) for e in elements)


def photo_shown(at: AppTest) -> bool:
    """The photo is on the page: the tappable one (a component), or a plain image without it."""
    return bool(at.main.image) or any(getattr(e, "key", None) == "photo_tap" for e in at.main)


def assert_clean(at: AppTest) -> None:
    assert not at.exception, at.exception
    assert "Traceback" not in texts(at.markdown)


def test_first_open_is_calm(ledger_path: Path) -> None:
    at = start()
    assert_clean(at)
    assert "Fill in every seat" in texts(at.info)
    assert [t.value for t in at.sidebar.text_input][:4] == ["东 East", "南 South", "西 West", "北 North"]


def test_manual_entry_settles(ledger_path: Path) -> None:
    at = fill(start(), SAMPLE["players"])
    assert_clean(at)
    assert metrics(at) == {n: f"{v:+d}" for n, v in EXPECTED.items()}
    assert at.button(key="record").disabled is False


NO_MODEL = not (ROOT / "models" / "cards.onnx").exists()


def test_sample_photo_without_a_model_shows_its_known_cards(ledger_path: Path, no_detector: Path) -> None:
    """No model: the sample photo is shown, reading is said to be unavailable, and the seats hold
    the sample's known cards (said so), which settle."""
    at = start()
    at.button(key="sample").click().run()
    assert_clean(at)
    info = texts(at.info)
    assert "photo reading unavailable: detector model not found" in info
    assert "The seats below hold the sample photo's known cards (not a read)" in info
    assert photo_shown(at), "the photo is shown without boxes"
    for i, p in enumerate(SAMPLE["players"]):
        for r in ROWS:
            assert str(at.session_state[f"txt_{i}_{r}"]).split() == p[r].split()
    assert metrics(at) == {n: f"{v:+d}" for n, v in EXPECTED.items()}


@pytest.mark.skipif(NO_MODEL, reason="models/cards.onnx not installed yet")
def test_sample_photo_is_read_by_the_model(ledger_path: Path, cached_reads: None) -> None:
    at = start()
    at.button(key="sample").click().run()
    assert_clean(at)
    assert "photo reading unavailable" not in texts(at.info)
    assert photo_shown(at), "the annotated photo is shown"
    assert "Read in " in texts(at.caption) and "52 cards" in texts(at.caption)  # how long the read took
    for i, p in enumerate(SAMPLE["players"]):
        for r in ROWS:
            assert sorted(str(at.session_state[f"txt_{i}_{r}"]).split()) == sorted(p[r].split())


def test_correction_by_text_and_picker_rescores(ledger_path: Path) -> None:
    at = fill(start(), SAMPLE["players"])
    # North's head 8s 5s 4h -> Ks 5s 4h: beats South's A-6-3? no (A high); beats nobody else: totals move.
    at.text_input(key="txt_3_head").set_value("K♠ 5s 4H").run()
    assert_clean(at)
    assert at.multiselect(key="pick_3_head").value == ["Ks", "5s", "4h"]
    before = metrics(at)
    assert before != {n: f"{v:+d}" for n, v in EXPECTED.items()}
    # The picker writes the text back in canonical form.
    at.multiselect(key="pick_3_head").set_value(["8s", "5s", "4h"]).run()
    assert at.text_input(key="txt_3_head").value == "8s 5s 4h"
    assert metrics(at) == {n: f"{v:+d}" for n, v in EXPECTED.items()}


def test_bad_card_token_says_what_to_do(ledger_path: Path) -> None:
    players = [dict(p) for p in SAMPLE["players"]]
    players[1]["middle"] = "Th Jc Qc Kx Ad"
    at = fill(start(), players)
    assert_clean(at)
    notes = texts(at.caption)
    assert "Kx" in notes and "rank then suit" in notes
    assert "南 South" in texts(at.info)  # not settled: South still needs its cards
    assert at.button(key="record").disabled


def test_duplicate_card_is_an_error_not_a_crash(ledger_path: Path) -> None:
    players = [dict(p) for p in SAMPLE["players"]]
    players[3]["head"] = "Qs 5s 4h"  # Qs is also East's
    at = fill(start(), players)
    assert_clean(at)
    assert "cannot be settled" in texts(at.error)
    assert "Qs" in texts(at.error)


def foul_players() -> list[dict]:
    players = [dict(p) for p in SAMPLE["players"]]
    players[3]["middle"], players[3]["tail"] = players[3]["tail"], players[3]["middle"]
    return players


def test_foul_under_reject_shows_rows_and_a_legal_arrangement(ledger_path: Path) -> None:
    at = fill(start(), foul_players())  # default preset luosong: 相公 must be re-arranged
    assert_clean(at)
    errors = texts(at.error)
    assert "相公" in errors and "middle > tail" in errors
    assert at.button(key="record").disabled
    at.button(key="use_arr_3").click().run()
    assert_clean(at)
    assert "相公" not in texts(at.error)
    assert sum(int(v) for v in metrics(at).values()) == 0 and metrics(at)


def test_foul_under_penalty_settles_with_the_penalty(ledger_path: Path) -> None:
    at = start()
    at.sidebar.selectbox(key="preset").set_value("taiwan")
    at = fill(at.run(), foul_players())
    assert_clean(at)
    assert "middle > tail" in texts(at.error)  # still called out at the seat
    assert metrics(at)["北 North"] == "-18"  # pays 6 to each of three
    assert "fouled" in texts(at.markdown)


def test_record_undo_and_names_survive_a_restart(ledger_path: Path) -> None:
    at = start()
    at.sidebar.text_input(key="name_0").set_value("阿明").run()
    at = fill(at, SAMPLE["players"])
    at.button(key="record").click().run()
    assert_clean(at)
    assert "Round 1 recorded" in texts(at.success)
    assert at.button(key="record").disabled  # the same table is not recorded twice
    [r] = Ledger(ledger_path).rounds()
    assert r.totals["阿明"] == 8 and r.table["players"][0]["name"] == "阿明"

    again = start()  # a new session (refresh, other tab, restarted server) sees the round and the name
    assert again.sidebar.text_input(key="name_0").value == "阿明"
    assert "Running totals after 1 round" in texts(again.markdown)
    again.button(key="undo").click().run()
    assert_clean(again)
    assert "undone" in texts(again.success)
    assert Ledger(ledger_path).rounds() == []


def test_undo_refuses_when_another_tab_recorded_since(ledger_path: Path) -> None:
    led = Ledger(ledger_path)
    led.record({"rules": "luosong", "players": []}, {"A": 1, "B": -1})
    at = start()
    led.record({"rules": "luosong", "players": []}, {"A": 2, "B": -2})  # the other tab
    at.button(key="undo").click().run()
    assert_clean(at)
    assert "another tab" in texts(at.warning)
    assert len(led.rounds()) == 2
