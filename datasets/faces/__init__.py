"""Third-party card-face designs: fetch (``python -m datasets.faces``), normalise, read back."""

from multiprocessing import Pool

from .fetch import NPM_PACKAGES, fetch_gnome, fetch_kde, fetch_npm
from .normalise import DESIGNS_DIR, normalise
from .sources import DESIGNS, design_available
from .store import StoredDeck, load, stored_names

__all__ = ["StoredDeck", "load", "stored_names", "ensure", "first_use"]


def ensure(workers: int = 2, log=print) -> list[str]:
    """Fetch and normalise every design not yet in the cache; return the names available."""
    todo = [d for d in DESIGNS if not (DESIGNS_DIR / d.name / "meta.json").is_file()]
    if todo:
        for key in NPM_PACKAGES:
            fetch_npm(key, log)
        fetch_gnome(log)
        fetch_kde(log)
        todo = [d for d in todo if design_available(d)]
        names = [d.name for d in todo]
        if names:
            log(f"normalising {len(names)} designs: {', '.join(names)}")
            with Pool(max(1, workers)) as pool:
                for name, ok in zip(names, pool.imap(_normalise_one, names), strict=True):
                    log(f"  {name}: {'ok' if ok else 'FAILED'}")
    return stored_names()


def first_use(fetch: bool, workers: int = 2) -> None:
    """The generators' setup step: fetch and normalise designs the first time (when none are
    cached), unless told not to; then only procedural faces are used, which is said loudly."""
    if stored_names():
        return
    if fetch:
        print("first use: fetching card designs into cache/faces (once; --no-fetch to skip)")
        try:
            ensure(workers)
        except Exception as e:  # no network, no npm: the generator still works
            print(f"fetching designs failed ({type(e).__name__}: {e})")
    if not stored_names():
        print("no fetched card designs in cache/faces: procedural faces only")


def _normalise_one(name: str) -> bool:
    design = next(d for d in DESIGNS if d.name == name)
    return normalise(design) is not None
