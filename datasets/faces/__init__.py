"""Third-party card-face designs: fetch (``python -m datasets.faces``), normalise, read back."""

from .store import StoredDeck, load, stored_names

__all__ = ["StoredDeck", "load", "stored_names", "ensure"]


def ensure(workers: int = 2, log=print) -> list[str]:
    """Fetch and normalise every design not yet in the cache; return the names available."""
    from multiprocessing import Pool

    from .fetch import NPM_PACKAGES, fetch_gnome, fetch_npm
    from .normalise import DESIGNS_DIR
    from .sources import DESIGNS, design_available

    todo = [d for d in DESIGNS if not (DESIGNS_DIR / d.name / "meta.json").is_file()]
    if todo:
        for key in NPM_PACKAGES:
            fetch_npm(key, log)
        fetch_gnome(log)
        todo = [d for d in todo if design_available(d)]
        names = [d.name for d in todo]
        if names:
            log(f"normalising {len(names)} designs: {', '.join(names)}")
            with Pool(max(1, workers)) as pool:
                for name, ok in zip(names, pool.imap(_normalise_one, names), strict=True):
                    log(f"  {name}: {'ok' if ok else 'FAILED'}")
    return stored_names()


def _normalise_one(name: str) -> bool:
    from .normalise import normalise
    from .sources import DESIGNS

    design = next(d for d in DESIGNS if d.name == name)
    return normalise(design) is not None
