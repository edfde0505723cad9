"""What `pip install` puts into site-packages: the runtime packages only, so the tooling's top-level
names (`datasets` would shadow Hugging Face's package) never reach a user's environment."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


def test_only_runtime_packages_are_installed():
    setuptools = pytest.importorskip("setuptools")
    find = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]["find"]
    packages = setuptools.find_packages(str(REPO), include=find["include"], exclude=find.get("exclude", ()))
    assert {p.split(".")[0] for p in packages} == {"scoring", "vision", "ledger", "appui"}
