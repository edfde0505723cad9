"""The bundled sample: `assets/sample.jpg` and the cards it shows (`assets/sample.json`).

The JSON is the photo's ground truth. The app uses it only when photo reading is unavailable
(no model yet), so "try the sample photo" still shows a newcomer a full settled round, clearly
labelled as the sample's known cards rather than a read. Replace both files together.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

ASSETS = Path(__file__).resolve().parent.parent / "assets"
SAMPLE_PHOTO = ASSETS / "sample.jpg"
SAMPLE_TABLE = ASSETS / "sample.json"


def photo_bytes() -> bytes | None:
    try:
        return SAMPLE_PHOTO.read_bytes()
    except OSError:
        return None


def known_table() -> dict[str, Any] | None:
    """The sample's cards: {"players": [{"name", "head", "middle", "tail"}]} or None if absent."""
    try:
        data = json.loads(SAMPLE_TABLE.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and data.get("players") else None
