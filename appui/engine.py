"""The app's one door into `scoring/`: parse, settle, re-arrange, with every failure as a message.

Why an adapter: the page must never show a traceback, and the rules engine is developed in
parallel, so a missing function (or a whole missing package) degrades to a clear sentence instead
of breaking the app. No rules logic lives here: what counts as a card, a foul or a point is
always the engine's answer.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any, Literal

from appui.text import literal

OutcomeKind = Literal["ok", "foul", "invalid", "unavailable"]
ROW_NAMES = ("head", "middle", "tail")
PRESET_NAMES: tuple[str, ...] = ("luosong", "weighted", "taiwan", "shisanshui", "app")


def _scoring() -> Any:
    """The scoring package, or an ImportError whose text says why it is missing."""
    return importlib.import_module("scoring")


def unavailable_reason() -> str | None:
    """None when settlement works; else why not (shown on the page)."""
    try:
        mod = _scoring()
    except Exception as exc:  # noqa: BLE001 - any import failure becomes a message
        return f"the scoring engine could not be loaded ({exc})"
    missing = [n for n in ("parse_cards", "settle") if not hasattr(mod, n)]
    if missing:
        return "the scoring engine is not installed yet (missing " + ", ".join(missing) + ")"
    return None


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
        mod = _scoring()
        cards = mod.parse_cards(text)
    except Exception as exc:  # noqa: BLE001 - CardError and friends
        token = getattr(exc, "token", None)
        hint = "write each card as rank then suit, e.g. Qh, 10♠, Td, As; jokers BJ / SJ"
        what = f"“{literal(token)}” is not a card" if token else literal(exc, 200) or "not a list of cards"
        return RowParse([], f"{what}: {hint}")
    return RowParse([str(c) for c in cards])


@dataclass
class Outcome:
    """What settling the table gave: the engine's JSON, classified for the page."""

    kind: OutcomeKind
    data: dict[str, Any] = field(default_factory=dict)
    message: str = ""
    foul_rows: dict[str, list[str]] = field(default_factory=dict)  # seat -> ["middle > tail"]
    specials: dict[str, str] = field(default_factory=dict)  # seat -> special declared

    @property
    def totals(self) -> dict[str, int]:
        return {str(k): int(v) for k, v in self.data.get("totals", {}).items()}


def _error_json(exc: BaseException) -> dict[str, Any] | None:
    to_json = getattr(exc, "to_json", None)
    if callable(to_json):
        try:
            data = to_json()
        except Exception:  # noqa: BLE001
            return None
        return data if isinstance(data, dict) else None
    return None


def _classify(data: dict[str, Any]) -> Outcome:
    err = data.get("error")
    if err == "foul":
        return Outcome("foul", data, "相公 (foul): a hand's rows are out of order; re-arrange it to settle.")
    if err:
        return Outcome("invalid", data, str(data.get("message") or err))
    return Outcome("ok", data)


def settle(table: dict[str, Any]) -> Outcome:
    """Settle a table dict (the CLI's JSON). Never raises."""
    reason = unavailable_reason()
    if reason:
        return Outcome("unavailable", message=reason)
    mod = _scoring()
    try:
        result = mod.settle(table)
        data = result.to_json() if hasattr(result, "to_json") else result
    except Exception as exc:  # noqa: BLE001 - TableError, CardError, anything: message, not traceback
        data = _error_json(exc)
        if data is not None:
            return _classify(data)
        return Outcome("invalid", {"error": "invalid", "message": str(exc)}, _invalid_message(exc))
    if not isinstance(data, dict):
        return Outcome("invalid", message="the scoring engine gave no result for this table")
    out = _classify(data)
    fouls = getattr(result, "fouls", None)
    if isinstance(fouls, dict):
        out.foul_rows = {str(k): [str(r) for r in v] for k, v in fouls.items()}
    elif isinstance(data.get("fouls"), dict):
        out.foul_rows = {str(k): [str(r) for r in v] for k, v in data["fouls"].items()}
    specials = getattr(result, "specials", None)
    if isinstance(specials, dict):
        out.specials = {str(k): str(v) for k, v in specials.items()}
    return out


def _invalid_message(exc: BaseException) -> str:
    where = [str(v) for v in (getattr(exc, "player", None), getattr(exc, "row", None)) if v]
    text = str(exc) or exc.__class__.__name__
    return f"{text}" + (f" (at {' / '.join(where)})" if where else "")


def arrange(cards: list[str], rules: Any) -> dict[str, list[str]] | None:
    """A legal head/middle/tail of these 13 cards: the solver's best (`scoring.arrange`), else the
    engine's simple legal suggestion (`suggest_arrangement`); None if neither is available."""
    if rules is None:
        return None
    try:
        mod = _scoring()
        if callable(getattr(mod, "arrange", None)):
            found = mod.arrange(cards, rules, top=1)
            if found:
                return rows_of(found[0])
        if callable(getattr(mod, "suggest_arrangement", None)):
            rows = mod.suggest_arrangement(cards, rules)
            return {r: [str(c) for c in cards] for r, cards in zip(ROW_NAMES, rows, strict=True)}
    except Exception:  # noqa: BLE001 - a missing suggestion is not an error for the player
        return None
    return None


def special_of(rows: dict[str, list[str]], rules: Any) -> str | None:
    """The special (报到) this arrangement may declare at this table, in words, or None."""
    if rules is None:
        return None
    try:
        mod = _scoring()
        cards = {r: mod.parse_cards(" ".join(rows[r])) for r in ("head", "middle", "tail")}
        values = {r: mod.evaluate(c, rules) for r, c in cards.items()}
        found = mod.best_special(cards, values, rules)
    except Exception:  # noqa: BLE001
        return None
    return str(found) if found else None  # in the table's words: "十二皇族 twelve royals (24)"


def rows_of(obj: Any) -> dict[str, list[str]] | None:
    """Rows from an Arrangement-like object or dict (`head`/`middle`/`tail`), as card strings."""
    out: dict[str, list[str]] = {}
    for row in ("head", "middle", "tail"):
        val = obj.get(row) if isinstance(obj, dict) else getattr(obj, row, None)
        if val is None:
            return None
        if isinstance(val, str):
            val = val.split()
        out[row] = [str(c) for c in val]
    return out


def ruleset(preset: str, overrides: dict[str, Any]) -> Any:
    """The engine's RuleSet for a preset plus options, or None if it cannot be built."""
    try:
        mod = _scoring()
        return mod.preset(preset, **overrides)
    except Exception:  # noqa: BLE001
        return None


def copies_allowed(card: str, rules: Any) -> int:
    """How often this card may lie on one table under these rules (the engine's deck); without
    rules (no engine) the plain 52-card deck: once, and no jokers."""
    try:
        mod = _scoring()
        [parsed] = mod.parse_cards(card)
        return int(rules.copies_allowed(parsed)) if rules is not None else int(not parsed.is_joker)
    except Exception:  # noqa: BLE001 - a card the engine cannot parse is not offered
        return 0
