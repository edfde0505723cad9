"""Geometry alone on generated scenes: are cards put in the right seat and row? Are damaged seats flagged?

    python -m benchmarks.geometry [--scenes DIR | --generate N --seed S] [--size 960] [--workers K] [--show K]

Reads the dataset generator's meta JSON (docs/ARCHITECTURE.md) for `table` and `seat` scenes (1 to 5
seats, every rotation, camera tilt), turns every visible index box into a detection with a plausible
class-score vector, and runs `vision.geometry.read_table` (the package) three ways:

- perfect detections: fraction of readable cards in the right seat and row (target 100%), exact
  scenes, and false alarms (problems raised on a perfect scene);
- 5% of detections dropped, and 2% misread: of the seats whose read differs from the truth, the
  fraction that carry a problem (target 100%: nothing wrong goes unflagged). Seats with no index in
  view at all (outside the photo) are counted apart: nothing can name them. Misreads follow the
  score model in `datasets.detections.scores_for`: by default a misread is unsure (the true class
  close behind, margin under 0.3; right reads lead by 0.35 or more); the line "confident (uniform)
  misreads" keeps the older, pessimistic model where a misread can be as sure as a right read;
- the deck constraints' gain: card accuracy with misreads, with and without `fix_with_deck`.

Scenes are generated once into cache/bench/, in a folder named by `datasets.fingerprint` (a changed
generator writes a new set instead of an old one being reused; it renders images too: ~0.5 s a scene).
`--show K` prints up to K failing scenes per mode (which cards went where, which problems were raised).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

from datasets.detections import scene_detections  # the same detector model the geometry tests use
from datasets.fingerprint import benchmark_fingerprint
from datasets.synth.batch import run as render_scenes
from vision.assign import assign
from vision.geometry import GeometryConfig, read_table
from vision.types import Detection

REPO = Path(__file__).resolve().parent.parent

ROWS = ("head", "middle", "tail")


def load_scenes(folder: Path) -> list[dict]:
    metas = []
    for p in sorted((folder / "meta").glob("*.json")):
        m = json.loads(p.read_text())
        if m.get("kind") in ("table", "seat") and m.get("seats"):
            metas.append(m)
    return metas


def generate(n: int, seed: int, size: int, workers: int) -> Path:
    out = REPO / "cache" / "bench" / f"geometry-{n}-{seed}-{size}-g{benchmark_fingerprint()}"
    if not (out / "meta").exists() or len(list((out / "meta").glob("*.json"))) < n:
        half = n // 2
        render_scenes(out, n - half, seed, workers, size, "table", prefix="t")
        render_scenes(out, half, seed + 1, workers, size, "seat", prefix="s")
    return out


def to_detections(scene: dict, rng: np.random.Generator, drop: float = 0.0, misread: float = 0.0,
                  model: str = "calibrated"):
    """Detections from visible index boxes; returns them and, per detection, the true card id."""
    pairs = list(scene_detections(scene, rng, drop=drop, misread=misread, model=model))
    return [d for _, d in pairs], [ci for ci, _ in pairs]


Read = tuple[int, str, str, list[int]]  # read seat, row, card, the true cards under it


def _box_key(box) -> tuple:
    return tuple(round(v, 2) for v in box)


def _reads(table, box_owner: dict) -> list[Read]:
    """Every card of the read seats that lies on at least one true card's index."""
    reads: list[Read] = []
    for s in table.seats:
        for row in ROWS:
            for rc in getattr(s, row):
                under = sorted({ci for b in rc.boxes if (ci := box_owner.get(_box_key(b))) is not None})
                if under:
                    reads.append((s.seat, row, rc.card, under))
    return reads


def _compare(reads: list[Read], truth: dict, readable: list[int], seat_map: dict
             ) -> tuple[int, int, set, list[str]]:
    """Cards placed in their true row, and placed there with their name; the true seats whose read is
    not exactly right; a line for each wrong card."""
    want: dict[tuple, Counter] = defaultdict(Counter)  # (true seat, name) -> rows of its readable cards
    for ci in readable:
        ts, trow, tcard = truth[ci]
        want[ts, tcard][trow] += 1
    got: dict[tuple, Counter] = defaultdict(Counter)  # the same key -> (row, name) of the reads there
    damaged: set = set()
    wrong = []
    for rs, row, card, under in reads:
        ts, _, tcard = truth[under[0]]
        here = seat_map.get(rs)
        if here == ts:
            got[ts, tcard][row, card] += 1
        else:  # in another seat (or one matched to none): missing from its own, extra in that one
            damaged.add(ts)
            if here is not None:
                damaged.add(here)
            wrong.append(f"{tcard} (seat {ts}) read {card} in {here} {row}")
    right = right_card = 0
    for key, rows in want.items():
        placed = Counter()
        for (row, _), n in got[key].items():
            placed[row] += n
        right += sum((rows & placed).values())
        named = Counter({row: n for (row, card), n in got[key].items() if card == key[1]})
        right_card += sum((rows & named).values())
        extra = sum(got[key].values()) > sum(rows.values())  # a card read twice, one read renamed
        if named != rows or extra:
            damaged.add(key[0])
            wrong.append(f"{key[1]} (seat {key[0]}) in rows {dict(rows)}, read {dict(got[key])}")
    return right, right_card, damaged, wrong


def _flagged(table, reads: list[Read], truth: dict, true_seats: list, seat_map: dict, box_owner: dict
             ) -> set:
    """The true seats the player is warned about where their cards lie: on a read seat holding any of
    them, on one of its cards shown outside the seats (an orphan, or a read left out as false: the app
    draws both where they lie and lists them), or on the table as a whole."""
    holders: dict[int, set] = defaultdict(set)  # read seat -> true seats with cards in it
    for rs, _, _, under in reads:
        holders[rs] |= {truth[ci][0] for ci in under}
    for rs, ts in seat_map.items():
        holders[rs].add(ts)  # an extra card's seat: flagged where it was read
    flagged: set = set()
    for p in table.problems:
        if p.seat is not None:
            flagged |= holders.get(p.seat, set())
        elif p.kind != "orphan":
            flagged |= set(true_seats)
    for o in table.unseated:
        for b in o.boxes:
            ci = box_owner.get(_box_key(b))
            if ci is not None:
                flagged.add(truth[ci][0])
    return flagged


def score_scene(
    scene: dict, dets: list[Detection], owner: list[int], table, detail: dict | None = None
) -> dict:
    """Compare a read with the truth: seats matched by card overlap (assignment). `detail` (a dict)
    receives the true seats found damaged and those flagged, and the wrong cards.

    Cards are compared by (true seat, name), each read card once: two copies of a card in one seat
    (two decks) are interchangeable, so their corners may pair either way round, and a card read as
    two (its corners unpaired) is one card too many in its seat, as a card from another seat is, even
    when the deck fix renamed the extra read."""
    box_owner = {_box_key(d.box): o for d, o in zip(dets, owner, strict=True)}
    truth = {ci: (c["seat"], c["row"], c["card"]) for ci, c in enumerate(scene["cards"])}
    readable = sorted(set(owner))
    reads = _reads(table, box_owner)
    true_seats = sorted({c["seat"] for c in scene["cards"] if c["seat"] is not None})
    seat_map = _match_seats(reads, truth, true_seats, len(table.seats))
    right, right_card, damaged, wrong = _compare(reads, truth, readable, seat_map)
    for ci, (ts, _, _) in truth.items():
        if ci not in readable:
            damaged.add(ts)  # a card the detector never saw: that seat cannot be right
    # A seat with no index in view at all (out of the photo) is nowhere to be named: counted apart.
    out_of_view = {ts for ts in true_seats if not any(truth[ci][0] == ts for ci in readable)}
    damaged -= out_of_view
    flagged_true = _flagged(table, reads, truth, true_seats, seat_map, box_owner)
    if detail is not None:
        detail.update(damaged=damaged, flagged=flagged_true, wrong=wrong)
    return {
        "cards": len(readable), "right": right, "right_card": right_card,
        "seats": len(true_seats) - len(out_of_view), "out_of_view": len(out_of_view),
        "damaged": len(damaged), "damaged_flagged": len(damaged & flagged_true),
        "exact": not damaged, "problems": len(table.problems),
        "complete": len(readable) == len(truth),
        "exact_complete": not damaged and len(readable) == len(truth),
        "right_complete": right if len(readable) == len(truth) else 0,
        "cards_complete": len(readable) if len(readable) == len(truth) else 0,
        "false_alarm": not damaged and bool(table.problems), "silent": bool(damaged - flagged_true),
        "seat_count_ok": len(table.seats) == len(true_seats),
    }


def _match_seats(reads: list[Read], truth: dict, true_seats: list, n_read: int
                 ) -> dict[int, object]:
    """Read seat -> the true seat it is taken for: the assignment of most cards in common."""
    overlap = np.zeros((max(n_read, 1), max(len(true_seats), 1)))
    for rs, _, _, under in reads:
        ts = truth[under[0]][0]
        if ts in true_seats:
            overlap[rs, true_seats.index(ts)] += 1
    if not n_read or not true_seats:
        return {}
    if overlap.shape[0] <= overlap.shape[1]:
        return {r: true_seats[c] for r, c in enumerate(assign(-overlap))}
    return {int(r): true_seats[c] for c, r in enumerate(assign(-overlap.T))}


def run_mode(scenes, *, drop=0.0, misread=0.0, seed=0, fix=True, given_seats=False,
             model="calibrated", show: int = 0, label: str = "") -> dict:
    """Totals over the scenes; `show` prints up to that many scenes that are wrong (perfect
    detections: with every card visible) or, with damage, wrong and not flagged."""
    rng = np.random.default_rng(seed)
    cfg = GeometryConfig(fix_with_deck=fix)
    tot: Counter = Counter()
    times = []
    for sc in scenes:
        dets, owner = to_detections(sc, rng, drop, misread, model)
        t = time.perf_counter()
        deck = sc.get("deck", 52) * sc.get("decks", 1)  # five seats deal from two decks
        table = read_table(dets, width=sc["width"], height=sc["height"], deck=deck, cfg=cfg,
                           seats=len(sc["seats"]) if given_seats else None)
        times.append(time.perf_counter() - t)
        detail: dict = {}
        r = score_scene(sc, dets, owner, table, detail)
        bad = (r["complete"] and not r["exact"]) if not (drop or misread) else r["silent"]
        if show and bad:
            show -= 1
            silent = sorted(detail["damaged"] - detail["flagged"])
            print(f"  [{label}] {sc['image']}: {len(sc['seats'])} seats, unflagged damaged seats {silent}; "
                  f"wrong: {'; '.join(detail['wrong'][:6])}; problems: "
                  f"{[(p.kind, p.seat, p.row) for p in table.problems][:6]}")
        for k, v in r.items():
            tot[k] += int(v)
    tot["ms_median"] = float(np.median(times) * 1000) if times else 0.0
    return dict(tot)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenes", type=Path, help="a generator output folder (with meta/)")
    ap.add_argument("--generate", type=int, default=1000, help="scenes to generate when --scenes is absent")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--size", type=int, default=960)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--show", type=int, default=0, help="print up to this many failing scenes per mode")
    args = ap.parse_args(argv)
    folder = args.scenes or generate(args.generate, args.seed, args.size, args.workers)
    scenes = load_scenes(folder)
    by_seats = Counter(len(s["seats"]) for s in scenes)
    print(f"{len(scenes)} scenes from {folder} (seats: {dict(sorted(by_seats.items()))})")

    def pct(a, b):
        return f"{100.0 * a / b:.2f}%" if b else "n/a"

    perfect = run_mode(scenes, show=args.show, label="perfect")
    print(f"perfect detections: cards in right seat+row {pct(perfect['right'], perfect['cards'])} "
          f"({perfect['right']}/{perfect['cards']}); exact scenes {pct(perfect['exact'], len(scenes))}; "
          f"seat count right {pct(perfect['seat_count_ok'], len(scenes))}; "
          f"exact scenes with a (false) problem {perfect['false_alarm']}; "
          f"scenes where every card shows an index: {perfect['complete']}, of them exact "
          f"{pct(perfect['exact_complete'], perfect['complete'])}, cards right "
          f"{pct(perfect['right_complete'], perfect['cards_complete'])}; "
          f"scenes wrong and not flagged {perfect['silent']}; median {perfect['ms_median']:.1f} ms/scene")
    per_seats = defaultdict(list)
    for sc in scenes:
        per_seats[len(sc["seats"])].append(sc)
    for n, group in sorted(per_seats.items()):
        r = run_mode(group)
        print(f"  {n} seat(s), {len(group)} scenes: {pct(r['right'], r['cards'])} of cards right, "
              f"exact {pct(r['exact'], len(group))}; every card visible in {r['complete']}: exact "
              f"{pct(r['exact_complete'], r['complete'])}, cards right "
              f"{pct(r['right_complete'], r['cards_complete'])}")
    for label, kw in (("5% dropped", {"drop": 0.05}), ("2% misread", {"misread": 0.02}),
                      ("2% misread, confident (uniform) misreads", {"misread": 0.02, "model": "uniform"})):
        r = run_mode(scenes, seed=1, show=args.show, label=label, **kw)
        print(f"{label}: damaged seats {r['damaged']}/{r['seats']} (and {r['out_of_view']} seats wholly "
              f"out of view, not counted), flagged "
              f"{pct(r['damaged_flagged'], r['damaged'])} ({r['damaged_flagged']}/{r['damaged']}); "
              f"cards right {pct(r['right_card'], r['cards'])}")
    on = run_mode(scenes, misread=0.02, seed=2, fix=True)
    off = run_mode(scenes, misread=0.02, seed=2, fix=False)
    print(f"deck constraints (2% misread): cards read right {pct(off['right_card'], off['cards'])} without ->"
          f" {pct(on['right_card'], on['cards'])} with; exact scenes {pct(off['exact'], len(scenes))} -> "
          f"{pct(on['exact'], len(scenes))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
