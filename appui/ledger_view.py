"""Step 5, the ledger: record the settled round, every round so far, running totals, chart, undo, CSV.

Recording is offered only for a table the engine settled, and once per exact table (the button
turns into "recorded as round N" until a card changes), so a double tap does not count a round
twice. The ledger, not the session, says what was recorded last: after a restart (a round committed
just before the server died shows no confirmation) the page shows the last round's time and
totals, and a table identical to it asks before it is recorded again. Undo passes the id of the
round this page showed as last: if another tab recorded one since, it refuses and says so instead
of undoing a round nobody here has seen.

When the configured ledger file cannot be opened the rounds go to `private_ledger`, a file of this
server alone that goes when it stops, and the page says exactly that.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import streamlit as st

from appui import engine
from appui.guard import flash, guarded
from appui.text import literal, shown_name
from ledger import Ledger, LedgerConflict, Round, private_path, report


def table_signature(table: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(table, sort_keys=True, ensure_ascii=False).encode()).hexdigest()[:16]


_flash = flash


@st.cache_resource(show_spinner=False)
def private_ledger() -> Ledger:
    """This server's own ledger when the configured one cannot be opened (`ledger.private_path`)."""
    return Ledger(private_path())


def fallback_message(path: object, exc: BaseException) -> str:
    return (f"The ledger file {literal(path, 200)} could not be opened ({literal(exc, 200)}). Rounds "
            "recorded now go to a private temporary file of this server alone and are deleted when "
            "it stops: set SHISANSHUI_LEDGER to a writable file and restart to keep them.")


def describe_round(number: int, r: Round) -> str:
    """`round 3, 2026-12-01 20:41:07 UTC: A +3, B -3` (names shown literally)."""
    when = r.recorded_at.replace("T", " ")[:19]
    who = ", ".join(f"{shown_name(k)} {int(v):+d}" for k, v in r.totals.items())
    return f"round {number}, {when} UTC: {who}"


@guarded
def _record(ledger: Ledger, table: dict[str, Any], totals: dict[str, int], sig: str) -> None:
    try:
        r = ledger.record(table, totals)
    except Exception as exc:  # noqa: BLE001 - disk full, read-only file: say so, keep the page
        _flash("error", f"The round could not be saved ({exc}). Check the ledger file and try again.")
        return
    n = len(ledger.rounds())
    st.session_state["recorded"] = {"sig": sig, "round": n, "id": r.id}
    _flash("success", f"Round {n} recorded 已记账.")


@guarded
def _undo(ledger: Ledger, expected_id: int | None) -> None:
    try:
        r = ledger.undo_last(expected_id=expected_id)
    except LedgerConflict as exc:
        _flash("warning", f"Nothing undone: {exc}.")
        return
    except Exception as exc:  # noqa: BLE001
        _flash("error", f"The ledger could not be changed ({exc}).")
        return
    if r is None:
        _flash("info", "There is no round to undo.")
        return
    st.session_state.pop("recorded", None)
    who = ", ".join(f"{shown_name(k)} {v:+d}" for k, v in r.totals.items())
    _flash("success", f"Last round undone 已撤销 ({who}).")


def render_record(ledger: Ledger, table: dict[str, Any] | None, outcome: engine.Outcome | None) -> None:
    """The record button under the settlement."""
    if table is None or outcome is None or outcome.kind != "ok":
        st.button("记账 Record this round", disabled=True, key="record", help="Settle a complete table first")
        return
    sig = table_signature(table)
    done = st.session_state.get("recorded")
    if isinstance(done, dict) and done.get("sig") == sig:
        st.button(f"✓ Recorded as round {done['round']}", disabled=True, key="record")
        return
    try:
        rounds = ledger.rounds()
    except Exception:  # noqa: BLE001 - the ledger section below says what is wrong with the file
        rounds = []
    if rounds and table_signature(rounds[-1].table) == sig:
        last = describe_round(len(rounds), rounds[-1])
        st.warning(f"This exact table is already the last round recorded ({last}). "
                   "Record it again only if it really was played twice.")
        st.button("记账 Record it again", key="record", on_click=_record,
                  args=(ledger, table, outcome.totals, sig))
        return
    st.button(
        "记账 Record this round",
        type="primary",
        key="record",
        on_click=_record,
        args=(ledger, table, outcome.totals, sig),
    )


def render_ledger(ledger: Ledger) -> None:
    try:
        rounds = ledger.rounds()
    except Exception as exc:  # noqa: BLE001
        st.error(f"The ledger at {ledger.path} could not be read ({exc}). Set SHISANSHUI_LEDGER to another.")
        return
    st.caption(f"Ledger file: `{ledger.path}`")
    if not rounds:
        st.info("No rounds recorded yet. Settle a table and press “Record this round”.")
        return
    totals = report.running_totals(rounds)
    st.caption(f"Last round recorded: {describe_round(len(rounds), rounds[-1])}")
    st.markdown(f"**累计 Running totals after {len(rounds)} round{'s' if len(rounds) != 1 else ''}**")
    cols = st.columns(max(1, len(totals)))
    for col, (who, v) in zip(cols, totals.items(), strict=False):
        col.metric(shown_name(who), f"{v:+d}" if v else "0")
    st.line_chart(
        report.cumulative_frame(rounds), x_label="round 局", y_label="cumulative score 累计", height=260
    )
    st.dataframe(report.rounds_frame(rounds), hide_index=True, key="ledger_table")
    last = rounds[-1]
    c1, c2 = st.columns(2)
    c1.button(
        f"↶ Undo round {len(rounds)} 撤销上一局",
        key="undo",
        on_click=_undo,
        args=(ledger, last.id),
    )
    c2.download_button(
        "⬇ Export CSV 导出",
        data=report.to_csv(rounds).encode("utf-8-sig"),
        file_name="shisanshui-ledger.csv",
        mime="text/csv",
        key="csv",
    )
