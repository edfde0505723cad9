"""How cards look on the page: suit symbols, red for ♥♦, and the picker's option list.

Only presentation lives here. Reading what a player typed is the rules engine's job
(`scoring.parse_cards`, via `appui.engine`), so the app accepts exactly what the CLI accepts.
"""

from __future__ import annotations

import html
from collections.abc import Iterable

from vision.classes import CLASS_NAMES

SUIT_SYMBOL = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
RED_SUITS = frozenset("hd")
JOKER_LABEL = {"BJ": "大王 BJ", "SJ": "小王 SJ"}
ROW_LABEL = {"head": "头道 head", "middle": "中道 middle", "tail": "尾道 tail"}
ROW_SIZE = {"head": 3, "middle": 5, "tail": 5}
ROWS = ("head", "middle", "tail")

#: Every card the picker offers, in the detector's order (spades first, A high).
PICKER_OPTIONS: tuple[str, ...] = CLASS_NAMES


def pretty(card: str) -> str:
    """`Th` -> `10♥`, `BJ` -> `大王 BJ`: the way a player says it."""
    if card in JOKER_LABEL:
        return JOKER_LABEL[card]
    if len(card) != 2:
        return card
    rank, suit = card[0], card[1]
    return ("10" if rank == "T" else rank) + SUIT_SYMBOL.get(suit, suit)


def is_red(card: str) -> bool:
    return card == "BJ" or (len(card) == 2 and card[1] in RED_SUITS)


def card_html(card: str) -> str:
    """One card as a small chip, red suits in red (a suggested arrangement, not an editor)."""
    color = "#c62828" if is_red(card) else "#111"
    return (
        f'<span class="ssc-card" style="display:inline-block;min-width:1.9em;padding:1px 3px;'
        f"margin:1px 2px;border:1px solid #bbb;border-radius:4px;background:#fff;color:{color};"
        f'font-weight:600;text-align:center;font-family:sans-serif">{html.escape(pretty(card))}</span>'
    )


def row_html(cards: Iterable[str]) -> str:
    cards = list(cards)
    if not cards:
        return '<span style="color:#888">(empty)</span>'
    return "".join(card_html(c) for c in cards)


def as_text(cards: Iterable[str]) -> str:
    """Cards as the text field shows them: canonical tokens, space separated (`Qh Td 2c`)."""
    return " ".join(cards)
