"""Cached benchmark sets are named by the generator's fingerprint: it must follow the sources."""

from __future__ import annotations

import shutil
from pathlib import Path

from datasets.fingerprint import PACKAGE, generator_fingerprint


def test_fingerprint_changes_with_a_generator_source_and_only_then(tmp_path: Path) -> None:
    for sub in ("synth", "faces"):
        shutil.copytree(PACKAGE / sub, tmp_path / sub, ignore=shutil.ignore_patterns("__pycache__"))
    before = generator_fingerprint(tmp_path)
    assert before == generator_fingerprint(PACKAGE)  # a copy of the same sources
    (tmp_path / "notes.txt").write_text("not a source")  # outside synth/ and faces/
    (tmp_path / "synth" / "README.txt").write_text("not code")
    assert generator_fingerprint(tmp_path) == before
    layout = tmp_path / "synth" / "layout.py"
    layout.write_text(layout.read_text() + "\n# a changed generator\n")
    assert generator_fingerprint(tmp_path) != before


def test_fingerprint_follows_the_designs_it_can_deal() -> None:
    """A checkout without the fetched designs renders procedural faces only: another set, another name."""
    both = generator_fingerprint(designs=["cardsjs", "letele"])
    assert generator_fingerprint(designs=["cardsjs", "letele"]) == both
    assert generator_fingerprint(designs=["cardsjs"]) != both
    assert generator_fingerprint(designs=[]) != both


def test_fingerprint_follows_the_fonts_it_draws_in() -> None:
    """Installing a font package deals other procedural faces under the same seed: another name."""
    dejavu = ["/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"]
    both = [*dejavu, "/usr/share/fonts/truetype/liberation/LiberationSerif-Regular.ttf"]
    assert generator_fingerprint(fonts=both) == generator_fingerprint(fonts=list(both))
    assert generator_fingerprint(fonts=dejavu) != generator_fingerprint(fonts=both)
