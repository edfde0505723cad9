"""Step 4, settle: totals, the pairwise matrix and each pair's itemised reasons, from the engine's JSON.

The engine already words every item (rows, 打枪, 全垒打, royalties, specials); this module only lays
them out. Reading the pairs is tolerant of the field names so a small change in the engine's JSON
shows up as a less detailed page, not a broken one.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from appui import engine


def _first(d: dict[str, Any], *names: str) -> Any:
    for n in names:
        if n in d:
            return d[n]
    return None


def pair_view(pair: dict[str, Any]) -> tuple[str, str, int, list[str]] | None:
    """(a, b, what a wins from b, reasons in words) for one pair, or None if unreadable."""
    a = _first(pair, "a", "player", "first", "p1")
    b = _first(pair, "b", "opponent", "second", "p2")
    if isinstance(pair.get("players"), list | tuple) and len(pair["players"]) == 2:
        a, b = pair["players"]
    net = _first(pair, "net", "points", "total", "score", "a_wins")
    if a is None or b is None or not isinstance(net, int | float):
        return None
    items = _first(pair, "items", "reasons", "details", "lines") or []
    reasons: list[str] = []
    for it in items if isinstance(items, list) else []:
        if isinstance(it, str):
            reasons.append(it)
        elif isinstance(it, dict):
            text = _first(it, "text", "reason", "what", "label", "description") or ""
            pts = _first(it, "points", "value", "delta")
            reasons.append(f"{text} ({pts:+d})" if isinstance(pts, int) and text else str(text or it))
    return str(a), str(b), int(net), reasons


def matrix(names: list[str], pairs: list[dict[str, Any]]) -> pd.DataFrame:
    """Row player wins this much from column player (negative: pays)."""
    frame = pd.DataFrame(0, index=names, columns=names, dtype=int)
    for p in pairs:
        v = pair_view(p)
        if v is None:
            continue
        a, b, net, _ = v
        if a in frame.index and b in frame.columns:
            frame.loc[a, b] += net
            frame.loc[b, a] -= net
    return frame


def _signed(v: int) -> str:
    return f"+{v}" if v > 0 else str(v)


def render_totals(outcome: engine.Outcome, names: list[str]) -> None:
    totals = outcome.totals
    cols = st.columns(len(names))
    for col, n in zip(cols, names, strict=True):
        v = int(totals.get(n, 0))
        col.metric(n, _signed(v))
    frame = pd.DataFrame({"player 玩家": names, "total 总分": [int(totals.get(n, 0)) for n in names]})
    st.dataframe(frame, hide_index=True, key="totals_table", width="content")


def render_settlement(outcome: engine.Outcome, names: list[str]) -> None:
    """Totals first (what players look for), then who pays whom, then why."""
    st.markdown("**总分 Totals**")
    render_totals(outcome, names)
    fouls = outcome.data.get("fouls") or []
    if fouls:
        who = ", ".join(str(f if not isinstance(f, dict) else f.get("player", f)) for f in fouls)
        st.warning(f"相公 foul settled by the table's rule: {who}")
    pairs = [p for p in outcome.data.get("pairs", []) if isinstance(p, dict)]
    if not pairs:
        return
    st.markdown("**谁赢谁 Who wins from whom** (row player wins this from column player)")
    st.dataframe(matrix(names, pairs).map(_signed), key="pair_matrix")
    with st.expander("明细 Itemised, pair by pair", expanded=False):
        for p in pairs:
            v = pair_view(p)
            if v is None:
                st.write(p)
                continue
            a, b, net, reasons = v
            st.markdown(f"**{a} vs {b}: {a} {_signed(net)}**")
            for r in reasons:
                st.markdown(f"- {r}")
