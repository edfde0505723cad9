"""The detector's class list: one source of truth for the ONNX output order and the YOLO labels.

The names are the rules engine's canonical card notation, so a detection can be handed to
`scoring` without any translation table in between.
"""

SUITS = "shdc"
SUIT_SIGNS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}  # as a player reads them in a message
RANKS = "AKQJT98765432"
JOKERS = ("BJ", "SJ")

CLASS_NAMES: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS) + JOKERS
CLASS_INDEX: dict[str, int] = {name: i for i, name in enumerate(CLASS_NAMES)}
NUM_CLASSES = len(CLASS_NAMES)

# The real photo set (../shared/datasets/real/cardcounter) names its classes '10C', 'AS', 'BLACK JOKER'...
_REAL_RANK = {"10": "T"}
_REAL_JOKER = {"BLACK JOKER": "SJ", "RED JOKER": "BJ"}


def from_real_name(name: str) -> str | None:
    """Map a cardcounter class name to ours; None for classes we do not detect (card backs)."""
    name = name.strip().upper()
    if name in _REAL_JOKER:
        return _REAL_JOKER[name]
    if name == "BACK":
        return None
    rank, suit = name[:-1], name[-1]
    rank = _REAL_RANK.get(rank, rank)
    card = rank + suit.lower()
    if card not in CLASS_INDEX:
        raise ValueError(f"unknown real-set class name {name!r}")
    return card
