"""Download the third-party card designs into ``cache/faces/`` (never committed).

The packages are fetched with the ordinary clients (``npm pack``, ``apt-get download``) so that
nothing needs root and the exact upstream artefacts are used; see ``datasets/FACES.md`` for the
licences. Each step is idempotent: a package already unpacked is not fetched again.
"""

from __future__ import annotations

import shutil
import subprocess
import tarfile
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
CACHE = REPO_ROOT / "cache" / "faces"
RAW = CACHE / "raw"

NPM_PACKAGES: dict[str, str] = {
    "cardsjs": "cardsJS",
    "svg-cards": "svg-cards",
    "deck-of-cards": "deck-of-cards",
    "younestouati": "@younestouati/playing-cards-standard-deck",
    "letele": "@letele/playing-cards",
}
DEB_PACKAGE = "gnome-cards-data"


def _run(cmd: list[str], cwd: Path) -> None:
    subprocess.run(cmd, cwd=cwd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def fetch_npm(key: str, log=print) -> Path | None:
    """``npm pack`` one package and unpack it to ``raw/<key>/package``; None if it failed."""
    dest = RAW / key
    if (dest / "package").is_dir():
        return dest / "package"
    if shutil.which("npm") is None:
        log(f"  {key}: npm not found, skipped")
        return None
    tmp = RAW / f"_{key}_dl"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    try:
        _run(["npm", "pack", "--silent", NPM_PACKAGES[key]], cwd=tmp)
        tgz = next(tmp.glob("*.tgz"))
        dest.mkdir(parents=True, exist_ok=True)
        with tarfile.open(tgz) as tf:
            tf.extractall(dest, filter="data")
    except (subprocess.CalledProcessError, StopIteration, tarfile.TarError) as e:
        log(f"  {key}: fetch failed ({e}), skipped")
        shutil.rmtree(dest, ignore_errors=True)
        return None
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return dest / "package" if (dest / "package").is_dir() else None


def fetch_gnome(log=print) -> Path | None:
    """``apt-get download`` + ``dpkg -x`` of gnome-cards-data: no root install, only unpacking."""
    dest = RAW / "gnome"
    cards = dest / "usr" / "share" / "aisleriot" / "cards"
    if cards.is_dir():
        return cards
    if shutil.which("apt-get") is None or shutil.which("dpkg") is None:
        log("  gnome-cards-data: apt-get/dpkg not found, skipped")
        return None
    tmp = RAW / "_gnome_dl"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    try:
        _run(["apt-get", "download", DEB_PACKAGE], cwd=tmp)
        deb = next(tmp.glob("*.deb"))
        _run(["dpkg", "-x", str(deb), str(dest)], cwd=tmp)
    except (subprocess.CalledProcessError, StopIteration) as e:
        log(f"  gnome-cards-data: fetch failed ({e}), skipped")
        return None
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return cards if cards.is_dir() else None
