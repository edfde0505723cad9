"""Turn what is on the page into the table JSON the rules engine settles (`python -m scoring settle`).

Pure functions over plain values, so the same dict is settled, shown and stored in the ledger.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from appui import engine
from appui.cards import ROW_SIZE, ROWS
from appui.text import shown_name


@dataclass
class TableSettings:
    """The sidebar's choices: a preset plus the options the table changed."""

    preset: str = "luosong"
    options: dict[str, Any] = field(default_factory=dict)
    names: list[str] = field(default_factory=list)
    declare: bool = True  # players declare eligible specials (报到) unless a seat opts out

    @property
    def seats(self) -> int:
        return len(self.names)


@dataclass
class SeatInput:
    """One seat's rows as typed, parsed by the engine, with any typing errors per row."""

    name: str
    cards: dict[str, list[str]]
    errors: dict[str, str]
    declare: bool = True

    @property
    def complete(self) -> bool:
        return not self.errors and all(len(self.cards[r]) == ROW_SIZE[r] for r in ROWS)

    @property
    def empty(self) -> bool:
        return not any(self.cards[r] for r in ROWS) and not self.errors

    def row_notes(self) -> dict[str, str]:
        """Per row, what is wrong in words: a typo, or too few / too many cards."""
        notes = dict(self.errors)
        for r in ROWS:
            n, want = len(self.cards[r]), ROW_SIZE[r]
            if r not in notes and n != want:
                notes[r] = f"{n} card{'s' if n != 1 else ''}, needs {want}"
        return notes


def read_seat(name: str, texts: dict[str, str], declare: bool = True) -> SeatInput:
    cards: dict[str, list[str]] = {}
    errors: dict[str, str] = {}
    for r in ROWS:
        parsed = engine.parse_row(texts.get(r, ""))
        cards[r] = parsed.cards
        if parsed.error:
            errors[r] = parsed.error
    return SeatInput(name, cards, errors, declare)


def build_table(settings: TableSettings, seats: list[SeatInput]) -> dict[str, Any]:
    """The engine's table dict; rows as canonical text (`As Kd 2c`), as the golden tables write them."""
    table: dict[str, Any] = {"rules": settings.preset}
    if settings.options:
        table["options"] = dict(settings.options)
    players = []
    for s in seats:
        p: dict[str, Any] = {"name": s.name, **{r: " ".join(s.cards[r]) for r in ROWS}}
        if not s.declare:
            p["declare"] = False
        players.append(p)
    table["players"] = players
    return table


def name_problems(names: list[str]) -> str | None:
    """Why these seat names cannot settle (empty or repeated), or None; a name as typed (Markdown)."""
    clean = [n.strip() for n in names]
    if any(not n for n in clean):
        return "Every seat needs a name: fill in the empty seat name in the sidebar."
    dup = sorted({n for n in clean if clean.count(n) > 1})
    if dup:
        return f"Two seats are called “{shown_name(dup[0])}”: give each seat its own name in the sidebar."
    return None
