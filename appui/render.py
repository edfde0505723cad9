"""Step 4, settle: totals, the pairwise matrix and each pair's itemised reasons, from the engine's JSON.

The engine already words every item (rows, 打枪, 全垒打, royalties, specials); this module only lays
them out, every name shown as typed (`appui.text.shown_name`: metric labels, tables and messages
are Markdown). Reading the pairs is tolerant of the field names so a small change in the engine's
JSON shows up as a less detailed page, not a broken one.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from appui import engine
from appui.text import literal, shown_name


def _first(d: dict[str, Any], *names: str) -> Any:
    for n in names:
        if n in d:
            return d[n]
    return None


def pair_view(pair: dict[str, Any]) -> tuple[str, str, int, list[str]] | None:
    """(a, b, what a wins from b, reasons in words) for one pair of the engine's JSON.

    The engine's pair: {"players": [a, b], "net": {a: n, b: -n}, "items": [{"kind", "row",
    "winner", "points", "detail", "hands"}]}.
    """
    players = pair.get("players")
    if not (isinstance(players, list | tuple) and len(players) == 2):
        return None
    a, b = str(players[0]), str(players[1])
    net = pair.get("net")
    if isinstance(net, dict):
        value = net.get(a, 0)
    else:
        value = net
    if not isinstance(value, int | float):
        return None
    reasons = [_item_text(it) for it in pair.get("items") or [] if isinstance(it, dict)]
    return a, b, int(value), reasons


WORDS_CHARS = 300  # an item's engine-worded detail: whole, but never a page of it

ROW_WORDS = {"head": "头道 head", "middle": "中道 middle", "tail": "尾道 tail"}


def _item_text(it: dict[str, Any]) -> str:
    """One item in the table's own words (the engine's `detail`), with who gains how much."""
    row = it.get("row")
    detail = literal(it.get("detail") or "", WORDS_CHARS)  # the engine's words name the players
    hands = it.get("hands")
    if isinstance(hands, dict) and hands:
        shown = " vs ".join(f"{shown_name(who)}: {literal(hand, WORDS_CHARS)}" for who, hand in hands.items())
        detail = f"{shown}" + (f" ({detail})" if detail else "")
    detail = detail or literal(it.get("kind") or "", WORDS_CHARS)
    pts = it.get("points")
    winner = it.get("winner")
    lead = f"{ROW_WORDS.get(row, row)}: " if row else ""
    gain = f" → **{shown_name(winner)} +{pts}**" if winner and isinstance(pts, int) and pts else " → tie 平"
    return f"{lead}{detail}{gain}"


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
    """The big numbers: each player's total for this round."""
    totals = outcome.totals
    cols = st.columns(len(names))
    for col, n in zip(cols, names, strict=True):
        v = int(totals.get(n, 0))
        col.metric(shown_name(n), _signed(v))


def score_table(names: list[str], pairs: list[dict[str, Any]], totals: dict[str, int]) -> pd.DataFrame:
    """The pairwise matrix with each player's total as the last column, all signed text; the
    names as `st.table` shows them (it reads cells and headers as Markdown)."""
    frame = matrix(names, pairs).map(_signed)
    frame["total 总分"] = [_signed(int(totals.get(n, 0))) for n in names]
    for n in names:
        frame.loc[n, n] = "·"
    shown = {n: shown_name(n) for n in names}
    return frame.rename(index=shown, columns=shown)


def render_settlement(outcome: engine.Outcome, names: list[str]) -> None:
    """Totals first (what players look for), then who pays whom, then why."""
    st.markdown("**总分 Totals**")
    render_totals(outcome, names)
    fouls = outcome.data.get("fouls") or []
    if fouls:
        who = ", ".join(shown_name(f if not isinstance(f, dict) else f.get("player", f)) for f in fouls)
        st.warning(f"相公 foul settled by the table's rule: {who}")
    pairs = [p for p in outcome.data.get("pairs", []) if isinstance(p, dict)]
    if not pairs:
        return
    st.markdown("**谁赢谁 Who wins from whom**: the row player wins this from the column player")
    st.table(score_table(names, pairs, outcome.totals))
    with st.expander("明细 Itemised, pair by pair", expanded=False):
        for p in pairs:
            v = pair_view(p)
            if v is None:
                st.write(p)
                continue
            a, b, net, reasons = v
            st.markdown(f"**{shown_name(a)} vs {shown_name(b)}: {shown_name(a)} {_signed(net)}**")
            for r in reasons:
                st.markdown(f"- {r}")
