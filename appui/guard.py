"""No traceback on the page: every callback and the script body go through here.

A callback that raises would make Streamlit print the exception above the page; `guarded` turns it
into a one-line message shown at the top on the next run. Streamlit's own control flow (rerun,
stop) derives from BaseException and passes through untouched.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

import streamlit as st

P = ParamSpec("P")
R = TypeVar("R")
log = logging.getLogger("shisanshui.app")


def guarded(fn: Callable[P, R]) -> Callable[P, R | None]:
    """Wrap a widget callback so any failure becomes a message, logged with its traceback."""

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R | None:
        try:
            return fn(*args, **kwargs)
        except Exception as exc:  # noqa: BLE001
            log.exception("callback %s failed", getattr(fn, "__name__", fn))
            flash("error", f"That did not work ({exc}). Check the input and try again.")
            return None

    return wrapper


def flash(kind: str, text: str) -> None:
    """A message for the top of the next run (success, info, warning, error)."""
    st.session_state.setdefault("flashes", []).append((kind, text))


def show_flashes() -> None:
    for kind, text in st.session_state.pop("flashes", []):
        getattr(st, kind if kind in ("success", "info", "warning", "error") else "info")(text)


def report_failure(exc: BaseException) -> None:
    """Last resort for the script body: log the traceback, show what to do."""
    log.exception("the page failed", exc_info=exc)
    st.error(
        f"Something went wrong while drawing the page ({exc.__class__.__name__}: {exc}). "
        "Your recorded rounds are safe. Press “New round” or reload the page; "
        "if it happens again, type the cards in manual mode."
    )


def call(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Run one section of the page; a failure there is reported and the rest still draws."""
    try:
        return fn(*args, **kwargs)
    except Exception as exc:  # noqa: BLE001
        report_failure(exc)
        return None
