"""十三水 / 十三张 scorer: photo in, checked and settled round out, with a ledger that keeps.

    streamlit run app.py

Thin on purpose: each step of the page is one module of `appui/`; the rules are `scoring/`'s, the
photo reading `vision/`'s, the storage `ledger/`'s. The ledger file is `$SHISANSHUI_LEDGER` or one in
the user's data directory.
"""

from __future__ import annotations

import streamlit as st

from appui import choices, engine, findings, guard, ledger_view, photo_view, review, seats, sidebar, state
from appui.cards import ROWS
from appui.render import render_settlement
from appui.table import SeatInput, TableSettings, build_table, name_problems, read_seat
from appui.text import literal, shown_name
from ledger import Ledger, default_path

MESSAGE_CHARS = 600  # the engine's reason, which quotes seat names and cards: shown as written


@st.cache_resource(show_spinner=False)
def open_ledger(path: str) -> Ledger:
    return Ledger(path)


def get_ledger() -> Ledger:
    """The configured ledger; if its file cannot be opened, this server's private one and a warning."""
    path = default_path()
    try:
        return open_ledger(str(path))
    except Exception as exc:  # noqa: BLE001
        st.error(ledger_view.fallback_message(path, exc))
        return ledger_view.private_ledger()


def seats_from_state(settings: TableSettings) -> list[SeatInput]:
    out = []
    for i, name in enumerate(settings.names):
        texts = {r: state.row_text(st.session_state, i, r) for r in ROWS}
        declare = settings.declare and bool(st.session_state.get(state.declare_key(i), True))
        out.append(read_seat(name, texts, declare))
    return out


def settle_table(
    settings: TableSettings, seats: list[SeatInput]
) -> tuple[dict | None, engine.Outcome | None]:
    """The table dict and its settlement; (None, None) while a seat is incomplete or a name is bad.

    Settled before the review is drawn (the values are already in session state), so each seat
    can show its own 相公 right under its rows.
    """
    if name_problems(settings.names) or not all(s.complete for s in seats):
        return None, None
    table = build_table(settings, seats)
    cached = st.session_state.get("_settled")
    if not (isinstance(cached, tuple) and cached[0] == table):
        cached = (table, engine.settle(table))
        st.session_state["_settled"] = cached
    return table, cached[1]


def show_outcome(settings: TableSettings, seats: list[SeatInput], outcome: engine.Outcome | None) -> None:
    """Step 3: what is still missing, why the table cannot settle, or the settlement itself."""
    bad_names = name_problems(settings.names)
    missing = [s.name for s in seats if not s.complete]
    if bad_names:
        st.warning(bad_names)
    elif missing:
        verb = " still need" if len(missing) > 1 else " still needs"
        who = ", ".join(map(shown_name, missing))
        st.info(f"Fill in every seat to settle: {who}{verb} 3 + 5 + 5 cards.")
    elif outcome is None:
        return
    elif outcome.kind == "invalid":
        st.error(f"This table cannot be settled: {literal(outcome.message, MESSAGE_CHARS)}. Fix it above.")
    elif outcome.kind == "foul":
        who = ", ".join(shown_name(f) for f in outcome.data.get("fouls") or {})
        st.error(
            f"相公 foul at {who or 'a seat'}: this table's rules do not settle a fouled hand. "
            "Re-arrange it above (a legal arrangement is suggested at the seat)."
        )
    else:
        render_settlement(outcome, settings.names)


def main() -> None:
    ledger = get_ledger()
    state.ensure_defaults(st.session_state, _saved_names(ledger))
    settings = sidebar.render(ledger)
    st.title("🃏 十三水 · 十三张 scorer")
    guard.show_flashes()
    mode = st.radio(
        "How are the cards entered? 输入方式",
        ["photo", "manual"],
        format_func={"photo": "📷 Photo 拍照", "manual": "⌨️ Type them 手动输入"}.get,
        horizontal=True,
        key="mode",
    )
    if mode == "photo":
        st.subheader("① 照片 Photo")
        guard.call(photo_view.render, settings.names, settings.options.get("extra_suit"))
    seat_inputs = seats_from_state(settings)
    table, outcome = settle_table(settings, seat_inputs)
    st.subheader("② 核对 Review the cards")
    guard.call(review_seats, ledger, settings, seat_inputs, outcome, mode == "photo")
    st.button("🆕 New round 新一局 (clear the cards)", key="new_round", on_click=_new_round)
    st.subheader("③ 结算 Settle", anchor="settle")
    guard.call(show_outcome, settings, seat_inputs, outcome)
    guard.call(ledger_view.render_record, ledger, table, outcome)
    st.subheader("④ 账本 Ledger")
    guard.call(ledger_view.render_ledger, ledger)


def review_seats(
    ledger: Ledger, settings: TableSettings, seat_inputs: list[SeatInput], outcome: engine.Outcome | None,
    photo_mode: bool,
) -> None:
    """Step 2: the seat order (photo mode), then every seat in table order, two abreast on a wide
    screen and one under the other, still in order, on a phone."""
    review.style()
    if photo_mode:
        seats.render(ledger, settings.names)
    rules = engine.ruleset(settings.preset, settings.options)
    st.caption(
        "Tap a card to replace it with the reader's next guesses or a card not seen elsewhere; "
        "⌨️ types a row (`Qh 10♠ td As`). Every change re-scores at once. "
        "[⬇ Totals and record 结算](#settle)"
    )
    problems = st.session_state.get("problems", [])
    holders = findings.where_else(seat_inputs)
    unseen = choices.unseen([c for s in seat_inputs for r in ROWS for c in s.cards[r]], rules)
    shown = outcome or engine.Outcome("ok")
    for first in range(0, len(seat_inputs), 2):
        pair = st.columns(2, gap="small")
        for col, i in zip(pair, range(first, min(first + 2, len(seat_inputs))), strict=False):
            seat = seat_inputs[i]
            found = findings.seat_findings(
                seat, holders, review.seat_problems(problems, i), review.confidence(i), rules
            )
            with col:
                guard.call(review.render_seat, i, seat, shown, rules, found, unseen, settings.declare,
                           not photo_mode)


@guard.guarded
def _new_round() -> None:
    state.clear_cards(st.session_state)
    for k in ("photo_result", "photo_digest", "recorded", seats.OFFER_KEY):
        st.session_state.pop(k, None)


def _saved_names(ledger: Ledger) -> list[str]:
    try:
        names = ledger.get_setting("seat_names", [])
    except Exception:  # noqa: BLE001
        return []
    return [str(n) for n in names] if isinstance(names, list) else []


st.set_page_config(page_title="十三水 scorer", page_icon="🃏", layout="wide")
try:
    main()
except Exception as exc:  # noqa: BLE001 - the last line of defence: a message, never a traceback
    guard.report_failure(exc)
