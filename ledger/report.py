"""Arithmetic over recorded rounds: running totals, the cumulative series and CSV.

Kept apart from `store` so it is pure (lists in, tables out) and the app can render it directly.
Players are matched by name across rounds; a player absent from a round simply scores 0 in it.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

import pandas as pd

from ledger.store import Round


def players(rounds: Sequence[Round]) -> list[str]:
    """Every name that appears in any round, in order of first appearance."""
    seen: dict[str, None] = {}
    for r in rounds:
        for name in r.totals:
            seen.setdefault(name, None)
    return list(seen)


def running_totals(rounds: Sequence[Round]) -> dict[str, int]:
    """Each player's sum over all rounds (zero-sum when every round is)."""
    out = dict.fromkeys(players(rounds), 0)
    for r in rounds:
        for name, v in r.totals.items():
            out[name] += int(v)
    return out


def rounds_frame(rounds: Sequence[Round]) -> pd.DataFrame:
    """One row per round (numbered from 1), one column per player, plus time and rules."""
    names = players(rounds)
    rows = []
    for i, r in enumerate(rounds, start=1):
        when = r.recorded_at.replace("T", " ")[:19]
        row: dict[str, object] = {"round": i, "time (UTC)": when, "rules": r.rules}
        row.update({n: int(r.totals.get(n, 0)) for n in names})
        rows.append(row)
    return pd.DataFrame(rows, columns=["round", "time (UTC)", "rules", *names])


def cumulative_frame(rounds: Sequence[Round]) -> pd.DataFrame:
    """Each player's cumulative score after every round, indexed by round number (0 = start)."""
    names = players(rounds)
    acc = dict.fromkeys(names, 0)
    data = [dict(acc)]
    for r in rounds:
        for n in names:
            acc[n] += int(r.totals.get(n, 0))
        data.append(dict(acc))
    frame = pd.DataFrame(data, columns=names)
    frame.index.name = "round"
    return frame


FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
"""What makes a spreadsheet read a cell as a formula (CSV injection): such a text cell gets a `'`."""


def spreadsheet_safe(cell: object) -> object:
    """A text cell a spreadsheet shows as text, never runs: `=1+1` is written `'=1+1`, as
    spreadsheet-safe exporters do (OWASP). Numbers stay numbers, so -3 is still a score."""
    if isinstance(cell, str) and cell.startswith(FORMULA_START):
        return "'" + cell
    return cell


def to_csv(rounds: Sequence[Round]) -> str:
    """CSV with one line per round and player columns, then a final `total` line.

    Every text cell goes through `spreadsheet_safe`: player names and the rules name are typed by
    players, and a seat named `=HYPERLINK(...)` must not become a live formula when opened."""
    names = players(rounds)
    buf = io.StringIO()
    w = csv.writer(buf)

    def row(cells: Sequence[object]) -> None:
        w.writerow([spreadsheet_safe(c) for c in cells])

    row(["round", "recorded_at", "rules", *names])
    for i, r in enumerate(rounds, start=1):
        row([i, r.recorded_at, r.rules, *(int(r.totals.get(n, 0)) for n in names)])
    totals = running_totals(rounds)
    row(["total", "", "", *(totals[n] for n in names)])
    return buf.getvalue()
