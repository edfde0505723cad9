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
KDE_DIR = RAW / "kde" / "usr" / "share" / "carddecks"

NPM_PACKAGES: dict[str, str] = {
    "cardsjs": "cardsJS",
    "svg-cards": "svg-cards",
    "deck-of-cards": "deck-of-cards",
    "younestouati": "@younestouati/playing-cards-standard-deck",
    "letele": "@letele/playing-cards",
}
DEB_PACKAGE = "gnome-cards-data"
KDE_PACKAGE = "kdegames-card-data-kf5"


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


def fetch_deb(package: str, dest: Path, inside: str, log=print) -> Path | None:
    """``apt-get download`` + ``dpkg -x`` of one Debian package into ``dest`` (no root install, only
    unpacking); the unpacked folder ``dest/inside``, or None (logged) if it failed."""
    found = dest / inside
    if found.is_dir():
        return found
    if shutil.which("apt-get") is None or shutil.which("dpkg") is None:
        log(f"  {package}: apt-get/dpkg not found, skipped")
        return None
    tmp = RAW / f"_{package}_dl"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    try:
        _run(["apt-get", "download", package], cwd=tmp)
        deb = next(tmp.glob("*.deb"))
        _run(["dpkg", "-x", str(deb), str(dest)], cwd=tmp)
    except (subprocess.CalledProcessError, StopIteration) as e:
        log(f"  {package}: fetch failed ({e}), skipped")
        return None
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return found if found.is_dir() else None


def fetch_gnome(log=print) -> Path | None:
    """GNOME Aisleriot's card themes (`DEB_PACKAGE`), unpacked under ``raw/gnome``."""
    return fetch_deb(DEB_PACKAGE, RAW / "gnome", "usr/share/aisleriot/cards", log)


def fetch_kde(log=print) -> Path | None:
    """KDE's card decks (`KDE_PACKAGE`), unpacked under ``raw/kde``."""
    return fetch_deb(KDE_PACKAGE, RAW / "kde", str(KDE_DIR.relative_to(RAW / "kde")), log)
