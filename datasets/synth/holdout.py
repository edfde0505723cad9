"""Which deck designs and procedural fonts are held out of every training and calibration set.

The reader must be measured on decks it has never seen, because that is what a player with their own
deck gets. So a fixed share of the faces is never rendered into anything that shapes a model
(`datasets.build`, `datasets.crops`, `datasets.proposals`, the int8 calibration tiles, the tuning sets
thresholds are chosen on): the generator deals from the `TRAIN` split unless it is asked for
`HELD_OUT`, and only the generalisation benchmark (`python -m benchmarks.holdout`) asks for it.

Held out: nine of the fetched designs (one npm package and three GNOME themes of different looks:
a 19th-century French court, an Italian one, a four-colour deck; and KDE's `standard`, `penguins`,
`jolly-royal` and `ancient-egyptians` decks, and its `dondorf` deck that prints all four corners,
which joined the fetched designs after every shipped model was trained, so no model has seen them in
any form) and the procedural faces' fonts of two
families (serif and monospace glyphs, about a fifth of the fonts).

One more design, KDE's `gm-paris` (a French-pattern deck with Anglo-American indices), is held out
of training *and* of every reported figure: the `DECIDE` split, on which a choice between readers
(namers, thresholds, geometry) is made, where the older held-out designs cannot judge fairly (the
first namer and the proposer trained on them before they were held out) and the never-seen KDE designs
must stay the report's alone. It has no fonts: its tables are dealt from its design only.

>>> from datasets.synth.holdout import Split, designs_for, fonts_for
>>> designs_for(Split.TRAIN, ("cardsjs", "younestouati", "gnome-bellot"))
('cardsjs',)
>>> designs_for(Split.HELD_OUT, ("cardsjs", "younestouati", "gnome-bellot"))
('younestouati', 'gnome-bellot')
>>> fonts_for(Split.HELD_OUT, ("/f/DejaVuSans.ttf", "/f/LiberationSerif-Bold.ttf"))
('/f/LiberationSerif-Bold.ttf',)
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from pathlib import Path


class Split(StrEnum):
    TRAIN = "train"  # everything that trains, calibrates or tunes a model
    HELD_OUT = "held_out"  # the generalisation benchmark only
    DECIDE = "decide"  # never trained on nor reported: choosing between readers only


HELD_OUT_DESIGNS: tuple[str, ...] = (
    "younestouati",
    "gnome-bellot",
    "gnome-tigullio",
    "gnome-neoclassical_4_color",
    "kde-standard",
    "kde-penguins",
    "kde-jolly-royal",
    "kde-ancient-egyptians",
    "kde-dondorf",
)
# File-name prefixes of the held-out procedural fonts (the system's DejaVu and Liberation families).
HELD_OUT_FONTS: tuple[str, ...] = ("LiberationSerif", "DejaVuSansMono")
# Designs no model trains on and no reported figure deals: the `DECIDE` split.
DECISION_DESIGNS: tuple[str, ...] = ("kde-gm-paris",)


class HeldOutError(ValueError):
    """A held-out design was asked for where a training set is being made."""


def split_of_design(name: str) -> Split:
    """The split a design belongs to: only `TRAIN`'s are ever rendered into what shapes a model."""
    if name in DECISION_DESIGNS:
        return Split.DECIDE
    return Split.HELD_OUT if name in HELD_OUT_DESIGNS else Split.TRAIN


def is_held_out_font(path: str) -> bool:
    return Path(path).name.startswith(HELD_OUT_FONTS)


def designs_for(split: Split, names: Iterable[str]) -> tuple[str, ...]:
    """The designs of ``names`` that belong to ``split``, in their given order."""
    return tuple(n for n in names if split_of_design(n) is split)


def fonts_for(split: Split, paths: Iterable[str]) -> tuple[str, ...]:
    """The font files of ``paths`` that belong to ``split``, in their given order (`DECIDE`: none)."""
    if split is Split.DECIDE:
        return ()
    return tuple(p for p in paths if is_held_out_font(p) == (split is Split.HELD_OUT))


def check_designs(split: Split, names: Iterable[str]) -> tuple[str, ...]:
    """``names`` unchanged when they all belong to ``split``; else a `HeldOutError` naming the strays."""
    names = tuple(names)
    strays = [n for n in names if n not in designs_for(split, names)]
    if strays:
        raise HeldOutError(
            f"design(s) {', '.join(strays)} are not in the {split.value} split "
            f"(held out: {', '.join(HELD_OUT_DESIGNS)}; for decisions: {', '.join(DECISION_DESIGNS)}; "
            "see datasets/synth/holdout.py)"
        )
    return names
