"""Table settings in the sidebar: preset, its options, seats and their names.

The names (and the preset, seat count and options) are saved in the ledger's settings table on
every change, so a restarted server or a new tab opens on the same table.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from appui import engine
from appui.guard import flash, guarded
from appui.state import MAX_SEATS, name_key
from appui.table import TableSettings
from ledger import Ledger

PRESET_LABELS = {
    "luosong": "罗宋 luosong (1·1·1, 相公 must re-arrange)",
    "weighted": "十三张 weighted (1·2·3, 相公 loses all)",
    "taiwan": "台湾十三支 taiwan (相公 pays 6)",
    "shisanshui": "十三水 shisanshui (row values, specials)",
    "app": "十三水 app rules (row values, 13 specials, 相公 must re-arrange)",
}
WHEEL_LABELS = {"low": "lowest 最小", "second": "second highest 第二大", "none": "not a straight 不算顺"}
FOUL_LABELS = {
    "reject": "must re-arrange 不许相公",
    "lose_all": "loses every row 全赔",
    "penalty": "pays a fixed penalty 赔固定分",
}
SUITS = {"s": "♠ spades", "h": "♥ hearts", "d": "♦ diamonds", "c": "♣ clubs"}


def _rules_default(rules: Any, name: str, fallback: Any) -> Any:
    value = getattr(rules, name, fallback) if rules is not None else fallback
    return fallback if value is None else value


@guarded
def _save(ledger: Ledger) -> None:
    """on_change: persist names and table choices; a failed write must not break the page."""
    names = [str(st.session_state.get(name_key(i), "")).strip() for i in range(MAX_SEATS)]
    table = {k: st.session_state.get(k) for k in ("preset", "seat_count")}
    try:
        ledger.set_setting("seat_names", names)
        ledger.set_setting("table", table)
    except Exception as exc:  # noqa: BLE001
        flash("warning", f"Seat names could not be saved to the ledger ({exc}); they still apply here.")


def render(ledger: Ledger) -> TableSettings:
    """Draw the sidebar and return the current settings."""
    saved = _saved_table(ledger)
    ss = st.session_state
    if ss.get("preset") not in engine.PRESET_NAMES:
        ss["preset"] = saved.get("preset") if saved.get("preset") in engine.PRESET_NAMES else "luosong"
    ss.setdefault("seat_count", saved.get("seat_count") if saved.get("seat_count") in (2, 3, 4, 5) else 4)
    sb = st.sidebar
    sb.header("牌桌设置 Table settings")
    preset = sb.selectbox(
        "规则 Rules preset",
        list(engine.PRESET_NAMES),
        format_func=lambda p: PRESET_LABELS.get(p, p),
        key="preset",
        on_change=_save,
        args=(ledger,),
    )
    rules = engine.ruleset(preset, {})
    with sb.expander("选项 Options", expanded=False):
        options, five, declare = _rule_options(rules, preset)
    names = _seat_names(sb, ledger, five)
    with sb.expander("坐庄 Banker", expanded=False):
        options |= _banker_options(rules, preset, names)
    return TableSettings(preset=preset, options=options, names=names, declare=declare)


def _rule_options(rules: Any, preset: str) -> tuple[dict[str, Any], bool, bool]:
    """The options expander's widgets: the options that differ from the preset's, whether five play
    (the 65-card deck), and whether specials are declared."""
    options: dict[str, Any] = {}
    jokers_default = int(_rules_default(rules, "jokers", 0))
    jokers = st.selectbox("鬼牌 Jokers", [0, 1, 2], index=jokers_default, key=f"opt_jokers_{preset}")
    wheel_default = str(_rules_default(rules, "wheel", "low"))
    wheel = _labelled_choice("A2345", WHEEL_LABELS, wheel_default, f"opt_wheel_{preset}")
    five = st.checkbox("五人 Five players (65-card deck)", key=f"opt_five_{preset}")
    if five:
        options["extra_suit"] = st.selectbox(
            "加一门 Added suit", list(SUITS), format_func=SUITS.get, key=f"opt_suit_{preset}"
        )
    foul_default = str(_rules_default(rules, "foul", "lose_all"))
    foul = _labelled_choice("相公 Foul", FOUL_LABELS, foul_default, f"opt_foul_{preset}")
    declare = st.checkbox("报到 Declare specials", value=True, key=f"opt_declare_{preset}")
    if jokers != jokers_default:
        options["jokers"] = jokers
    if wheel != wheel_default:
        options["wheel"] = wheel
    if foul != foul_default:
        options["foul"] = foul
    return options, five, declare


def _labelled_choice(label: str, labels: dict[str, str], default: str, key: str) -> str:
    """A select box over `labels`' keys, shown by their labels, starting at `default` (the first key
    when the preset's value has no label)."""
    choices = list(labels)
    return st.selectbox(label, choices, index=choices.index(default) if default in choices else 0,
                        format_func=labels.get, key=key)


def _seat_names(sb: Any, ledger: Ledger, five: bool) -> list[str]:
    """How many play (five only with the 65-card deck) and their seat names, clockwise."""
    ss = st.session_state
    seat_choices = [2, 3, 4, 5] if five else [2, 3, 4]
    if ss.get("seat_count") not in seat_choices:
        ss["seat_count"] = seat_choices[-1]
    count = sb.radio(
        "人数 Players",
        seat_choices,
        horizontal=True,
        key="seat_count",
        on_change=_save,
        args=(ledger,),
    )
    sb.caption("座位名 Seat names (clockwise round the table; kept between rounds)")
    return [sb.text_input(f"Seat {i + 1}", key=name_key(i), on_change=_save, args=(ledger,)).strip()
            for i in range(count)]


def _banker_options(rules: Any, preset: str, names: list[str]) -> dict[str, Any]:
    """The banker expander's widgets: the banker and the cap per pair, as options."""
    banker = st.selectbox("Banker 庄家", ["(none)", *names], key=f"opt_banker_{preset}")
    cap_default = int(_rules_default(rules, "banker_cap", 0))
    cap = st.number_input(
        "Cap per pair 封顶 (0 = none)", min_value=0, max_value=999, value=cap_default,
        key=f"opt_cap_{preset}",
    )
    if banker == "(none)":
        return {}
    options: dict[str, Any] = {"banker": banker}
    if int(cap) != cap_default:
        options["banker_cap"] = int(cap) or None
    return options


def _saved_table(ledger: Ledger) -> dict[str, Any]:
    try:
        value = ledger.get_setting("table", {})
    except Exception:  # noqa: BLE001
        return {}
    return value if isinstance(value, dict) else {}
