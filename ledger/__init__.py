"""The round ledger: every recorded round, kept in SQLite so nothing is lost between sessions.

The app only talks to `Ledger`; `ledger.report` turns its rows into running totals, a cumulative
series for the chart and CSV, so the storage and the arithmetic can be tested apart.
"""

from ledger.store import LEDGER_ENV, Ledger, LedgerConflict, Round, default_path, private_path

__all__ = ["LEDGER_ENV", "Ledger", "LedgerConflict", "Round", "default_path", "private_path"]
