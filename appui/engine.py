"""The app's one door into `scoring/`: parse, settle, re-arrange, with every input error as a message.

Why an adapter: the page must never show a traceback. Every error a player can cause is a
`scoring.ScoringError` (a card that does not parse, a card seen twice, a row of four) carrying
`.player`, `.row` and `.token`; here it becomes a sentence. Anything else the engine raises is a bug
and goes on to `appui.guard`. No rules logic lives here: what counts as a card, a foul or a point is
always the engine's answer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

import scoring
from appui.text import literal
from scoring import ROWS, RuleSet, ScoringError

OutcomeKind = Literal["ok", "foul", "invalid"]
PRESET_NAMES: tuple[str, ...] = tuple(scoring.PRESETS)
CARD_HINT = "write each card as rank then suit, e.g. Qh, 10♠, Td, As; jokers BJ / SJ"


@dataclass
class RowParse:
    cards: list[str]
    error: str | None = None


def parse_row(text: str) -> RowParse:
    """Cards a player typed (`Qh 10♠ td`), canonical, or the engine's error in words."""
    text = (text or "").replace(",", " ").replace("，", " ").strip()
    if not text:
        return RowParse([])
    try:
        cards = scoring.parse_cards(text)
    except ScoringError as exc:
        what = f"“{literal(exc.token)}” is not a card" if exc.token else literal(exc, 200)
        return RowParse([], f"{what}: {CARD_HINT}")
    return RowParse([str(c) for c in cards])


@dataclass
class Outcome:
    """What settling the table gave: the engine's JSON, classified for the page."""

    kind: OutcomeKind
    data: dict[str, Any] = field(default_factory=dict)
    message: str = ""  # why the engine refused the table (kind "invalid"), with where
    foul_rows: dict[str, list[str]] = field(default_factory=dict)  # seat -> ["middle > tail"]

    @property
    def totals(self) -> dict[str, int]:
        return {str(k): int(v) for k, v in self.data.get("totals", {}).items()}


def settle(table: dict[str, Any]) -> Outcome:
    """Settle a table dict (the CLI's JSON); a table the engine refuses is an "invalid" Outcome."""
    try:
        result = scoring.settle(table)
    except ScoringError as exc:
        return Outcome("invalid", {"error": "invalid", "message": exc.message}, _invalid_message(exc))
    fouls = {name: list(rows) for name, rows in result.fouls.items()}
    return Outcome("foul" if result.rejected else "ok", result.to_json(), foul_rows=fouls)


def _invalid_message(exc: ScoringError) -> str:
    where = [v for v in (exc.player, exc.row) if v]
    return exc.message + (f" (at {' / '.join(where)})" if where else "")


def arrange(cards: list[str], rules: RuleSet | None) -> dict[str, list[str]] | None:
    """A legal head/middle/tail of these 13 cards: the solver's best (`scoring.arrange`), else the
    engine's simple legal suggestion (`suggest_arrangement`, for a hand whose every ranked layout the
    solver dropped); None without rules or when the cards cannot be arranged (not 13, no legal way)."""
    if rules is None:
        return None
    try:
        found = scoring.arrange(cards, rules, top=1)
        if found:
            return rows_of(found[0])
        rows = scoring.suggest_arrangement(cards, rules)
    except ScoringError:  # a missing suggestion is not an error for the player
        return None
    return {r: [str(c) for c in row] for r, row in zip(ROWS, rows, strict=True)}


def special_of(rows: dict[str, list[str]], rules: RuleSet | None) -> str | None:
    """The special (报到) this arrangement may declare at this table, in words, or None."""
    if rules is None:
        return None
    try:
        cards = {r: scoring.parse_cards(" ".join(rows[r])) for r in ROWS}
        values = {r: scoring.evaluate(c, rules) for r, c in cards.items()}
    except ScoringError:  # a row the engine cannot value declares nothing
        return None
    found = scoring.best_special(cards, values, rules)
    return str(found) if found else None  # in the table's words: "十二皇族 twelve royals (24)"


def rows_of(obj: Any) -> dict[str, list[str]] | None:
    """Rows from an Arrangement or its JSON (`head`/`middle`/`tail`), as card strings."""
    out: dict[str, list[str]] = {}
    for row in ROWS:
        val = obj.get(row) if isinstance(obj, dict) else getattr(obj, row, None)
        if val is None:
            return None
        if isinstance(val, str):
            val = val.split()
        out[row] = [str(c) for c in val]
    return out


def ruleset(preset: str, overrides: dict[str, Any]) -> RuleSet | None:
    """The engine's RuleSet for a preset plus options, or None if the engine refuses them."""
    try:
        return scoring.preset(preset, **overrides)
    except ScoringError:
        return None


def copies_allowed(card: str, rules: RuleSet | None) -> int:
    """How often this card may lie on one table under these rules (the engine's deck); without
    rules (options the engine refused) the plain 52-card deck: once, and no jokers."""
    try:
        parsed = scoring.parse_card(card)
    except ScoringError:  # a card the engine cannot parse is not offered
        return 0
    return rules.copies_allowed(parsed) if rules is not None else int(not parsed.is_joker)
