"""Text a player typed, shown on the page exactly as typed: never read as Markdown, never whole
when it is long.

Streamlit renders every message as Markdown, so a token `**x**` would show bold and `:red[x]`
coloured; each Markdown character is escaped with a backslash (CommonMark lets any ASCII
punctuation be escaped), and a long text is cut to its start with its length said.
"""

from __future__ import annotations

MARKDOWN = set("\\`*_{}[]()<>#+-.!|~$:=&^")
SHOWN_CHARS = 24
NAME_CHARS = 40  # a seat name: longer than a typed token may be, still one line on a phone


def literal(text: object, limit: int = SHOWN_CHARS) -> str:
    """`text` for a Markdown message: escaped, on one line, and at most about `limit` characters."""
    s = " ".join(str(text).split())
    cut = len(s) > limit
    if cut:
        s = s[: limit - 4]
    out = "".join("\\" + ch if ch in MARKDOWN else ch for ch in s)
    return out + f"… ({len(str(text)):,} characters)" if cut else out


def shown_name(text: object) -> str:
    """A seat or player name for a Markdown message, label or table cell: `literal`, name-sized."""
    return literal(text, NAME_CHARS)
