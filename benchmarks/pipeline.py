"""Photo to table, end to end: exact tables, real-photo card F1, and speed against Ultralytics (slow).

    python -m benchmarks.pipeline [--model models/cards.onnx] [--weights models/best.pt]
                                  [--tables 50] [--runs 7] [--also models/cards.fp32.onnx]
                                  [--skip-e2e] [--skip-real] [--regions on|off|both]

- Held-out generated table photos (a seed never used for training): the fraction of tables where
  every seat's head, middle and tail come out exactly right, and of the wrong ones how many carry a
  problem (nothing wrong should pass silently).
- Card-level F1 on ../shared/datasets/real/cardcounter (test half; see datasets.real).
- Speed on this machine: median time from a 4000x3000 four-seat JPEG file to `TableRead`, and in
  the same run Ultralytics' own CPU `predict` of the same weights (.pt) on the same file at the same
  working resolution (run in the train venv: `--train-python`, default $TRAIN_PYTHON or
  /work/venvs/train/bin/python), the two timed in turn, run by run (`UltralyticsTimer`), and the ratio.
- `--also MODEL`: another ONNX export timed and measured the same way, e.g. the float export
  `models/cards.fp32.onnx` the shipped int8 model was quantised from (`vision.quantize`).
- `--regions both`: each model also read whole (no `vision.regions` cut), timed in the same turns.

Runs as soon as the model exists; without it, it says so and stops.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
from tqdm import tqdm

import vision
from benchmarks.metrics import CardScore
from datasets.fingerprint import benchmark_fingerprint
from datasets.real import items as real_items
from datasets.synth.batch import run as render_scenes
from vision.assign import assign
from vision.classes import JOKERS
from vision.detector import DEFAULT_MODEL, Detector, ScaleConfig
from vision.regions import RegionConfig

REPO = Path(__file__).resolve().parent.parent
BENCH = REPO / "cache" / "bench"
ROWS = ("head", "middle", "tail")

ULTRALYTICS_TIMER = r"""
import json, os, sys, time
os.environ["YOLO_OFFLINE"] = "1"
import torch
torch.set_num_threads(int(sys.argv[4]))
from ultralytics import YOLO
model = YOLO(sys.argv[1])
path, imgsz = sys.argv[2], int(sys.argv[3])
model.predict(path, imgsz=imgsz, device="cpu", verbose=False, conf=0.25)  # warm-up
print("ready", flush=True)
for _ in sys.stdin:  # one timed predict per line, so the caller can interleave its own runs
    t = time.perf_counter()
    r = model.predict(path, imgsz=imgsz, device="cpu", verbose=False, conf=0.25)
    print(json.dumps({"s": time.perf_counter() - t, "boxes": len(r[0].boxes)}), flush=True)
"""


def generate(out: Path, n: int, seed: int, kind: str = "table", size: int = 1280) -> Path:
    if not (out / "meta").exists() or len(list((out / "meta").glob("*.json"))) < n:
        render_scenes(out, n, seed, min(2, os.cpu_count() or 1), size, kind)
    return out


def truth_of(meta: dict) -> dict[int, dict[str, Counter]]:
    seats: dict[int, dict[str, Counter]] = {}
    for c in meta["cards"]:
        if c["seat"] is not None and c["row"]:
            seats.setdefault(c["seat"], {r: Counter() for r in ROWS})[c["row"]][c["card"]] += 1
    return seats


def added_suit_of(meta: dict) -> str | None:
    """The suit a scene deals twice (the five-player game's added suit), or None. The benchmark tells
    the reader as the app does: a five-player table's rules name the suit (`vision.read(extra_suit=)`,
    the app's five-player setting), so the reader never has to guess it from the reads."""
    names = Counter(c["card"] for c in meta["cards"] if c["seat"] is not None)
    twice = {n[-1] for n, k in names.items() if k == 2}
    return twice.pop() if len(twice) == 1 else None


def jokers_of(meta: dict) -> int | None:
    """What the benchmark tells the reader of a scene's jokers, as the table's rules tell the app
    (`vision.read(jokers=)`; every preset plays without): 0 where none is dealt, else None (the reader
    free to read them)."""
    return None if any(c["card"] in JOKERS for c in meta["cards"] if c["seat"] is not None) else 0


def match_seats(truth: dict[int, dict[str, Counter]], seats: list) -> list[int | None]:
    """For each true seat (in sorted order) the read seat sharing most cards with it, one each
    (an assignment), or None where there are fewer read seats than true ones."""
    ts = sorted(truth)
    overlap = np.zeros((len(ts), max(len(ts), len(seats))))
    for i, t in enumerate(ts):
        tc = sum(truth[t].values(), Counter())
        for j, s in enumerate(seats):
            overlap[i, j] = sum((tc & Counter(c.card for c in s.cards)).values())
    return [int(j) if j < len(seats) else None for j in assign(-overlap)]


def rows_of(seat) -> dict[str, Counter]:
    """A read seat's head, middle and tail as card counts, the form `truth_of` gives a true seat's."""
    return {r: Counter(c.card for c in getattr(seat, r)) for r in ROWS}


def seat_right(rows: dict[str, Counter], seat) -> bool:
    """The read seat holds exactly the true head, middle and tail."""
    read = rows_of(seat)
    return all(read[r] == rows[r] for r in ROWS)


def table_exact(meta: dict, table) -> bool:
    """Every true seat matched (by shared cards) to a read seat with the same three rows."""
    truth = truth_of(meta)
    if len(table.seats) != len(truth):
        return False
    return all(seat_right(truth[t], table.seats[j])
               for t, j in zip(sorted(truth), match_seats(truth, table.seats), strict=True))


def end_to_end(det: Detector, n: int, seed: int, label: str) -> dict:
    folder = generate(BENCH / f"e2e-{seed}-{n}-g{benchmark_fingerprint()}", n, seed)
    exact = flagged_wrong = wrong = 0
    times = []
    for meta_path in sorted((folder / "meta").glob("*.json"))[:n]:
        meta = json.loads(meta_path.read_text())
        t = time.perf_counter()
        table = vision.read(folder / "images" / meta["image"], model=det, jokers=jokers_of(meta),
                            extra_suit=added_suit_of(meta))
        times.append(time.perf_counter() - t)
        if table_exact(meta, table):
            exact += 1
        else:
            wrong += 1
            flagged_wrong += bool(table.problems)
    print(f"{label}: exact tables {exact}/{n} ({100 * exact / max(1, n):.1f}%); wrong tables flagged "
          f"{flagged_wrong}/{wrong}; median {1000 * statistics.median(times):.0f} ms/photo (1280 px)")
    return {"exact": exact / max(1, n), "flagged_wrong": flagged_wrong, "wrong": wrong}


def real_f1(det: Detector, label: str) -> dict | None:
    try:
        test = real_items("test")
    except (FileNotFoundError, OSError) as e:
        print(f"{label}: real photos skipped ({e})")
        return None
    score = CardScore()
    for it in test:
        read = [d.card for d in vision.detect(it.image, model=det)]
        score.add(read, [c for c, _ in it.cards], it.unlabelled)
    print(f"{label}: real test half, {len(test)} photos: cards {score.line()}")
    return {"f1": score.f1}


def speed_photo() -> Path:
    """A 4000x3000 JPEG of a four-seat table (a generated 4:3 scene, enlarged as a phone would shoot)."""
    gen = benchmark_fingerprint()
    out = BENCH / "speed" / f"table4_4000x3000-g{gen}.jpg"
    if out.exists():
        return out
    folder = generate(BENCH / f"speed-src-g{gen}", 24, 31337)
    for meta_path in sorted((folder / "meta").glob("*.json")):
        meta = json.loads(meta_path.read_text())
        if len(meta["seats"]) == 4 and meta["width"] * 3 == meta["height"] * 4:
            img = cv2.imread(str(folder / "images" / meta["image"]))
            out.parent.mkdir(parents=True, exist_ok=True)
            cv2.imwrite(str(out), cv2.resize(img, (4000, 3000), interpolation=cv2.INTER_CUBIC),
                        [cv2.IMWRITE_JPEG_QUALITY, 92])
            return out
    raise SystemExit("no four-seat 4:3 scene among the generated ones; raise the count in speed_photo()")


class UltralyticsTimer:
    """Ultralytics' own `predict` in a child process (the train venv), one timed call per `run()`.

    Why a live child and not one batch of runs: this machine's speed drifts by 10-30% within minutes
    (Ultralytics took 1,263-1,635 ms on the same photo in one session), so the two sides are timed in
    turn, run by run, and the ratio compares medians taken over the same minutes.
    """

    def __init__(self, python: str, weights: Path, path: Path, imgsz: int, threads: int) -> None:
        self.file = tempfile.NamedTemporaryFile("w", suffix=".py", delete=False)
        self.file.write(ULTRALYTICS_TIMER)
        self.file.close()
        self.err = tempfile.TemporaryFile("w+")  # a pipe left unread could fill and stall the child
        args = [python, self.file.name, str(weights), str(path), str(imgsz), str(threads)]
        self.proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.err,
                                     text=True)
        if self.proc.stdout.readline().strip() != "ready":
            self.err.seek(0)
            raise RuntimeError(f"Ultralytics timer did not start: {self.err.read()[-800:]}")

    def run(self) -> float:
        self.proc.stdin.write("run\n")
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())["s"]

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(timeout=60)
        self.err.close()
        os.unlink(self.file.name)


def time_interleaved(
    models: dict[str, Detector], path: Path, runs: int, ultralytics: UltralyticsTimer | None
) -> tuple[dict[str, float], float | None, dict[str, int]]:
    """Median seconds from file to `TableRead` per model, and of Ultralytics' predict, timed in turn."""
    for det in models.values():
        vision.read(path, model=det)  # warm-up (first run allocates)
    ts: dict[str, list[float]] = {name: [] for name in models}
    ul: list[float] = []
    placed: dict[str, int] = {}
    for _ in tqdm(range(runs), desc="timing", unit="round"):
        for name, det in models.items():
            t = time.perf_counter()
            table = vision.read(path, model=det)
            ts[name].append(time.perf_counter() - t)
            placed[name] = sum(len(s.cards) for s in table.seats)
        if ultralytics is not None:
            ul.append(ultralytics.run())
    return ({n: statistics.median(v) for n, v in ts.items()}, statistics.median(ul) if ul else None, placed)


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", type=Path, default=Path(os.environ.get("CARDS_MODEL", DEFAULT_MODEL)))
    ap.add_argument("--weights", type=Path, default=None, help="the .pt the ONNX came from (default "
                    "models/best.pt, else models/last.pt)")
    ap.add_argument("--train-python", default=os.environ.get("TRAIN_PYTHON", "/work/venvs/train/bin/python"))
    ap.add_argument("--tables", type=int, default=50, help="held-out generated table photos")
    ap.add_argument("--seed", type=int, default=424242)
    ap.add_argument("--runs", type=int, default=7, help="timed runs per figure (median)")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--long-side", type=int, default=ScaleConfig.long_side)
    ap.add_argument("--also", type=Path, action="append", default=[],
                    help="another ONNX model to time and measure the same way (repeat)")
    ap.add_argument("--skip-e2e", action="store_true")
    ap.add_argument("--skip-real", action="store_true")
    ap.add_argument("--regions", choices=["on", "off", "both"], default="on",
                    help="read only the parts with detail (vision.regions), the whole photo, or both")
    return ap


def _detectors(args: argparse.Namespace) -> dict[str, Detector]:
    """The readers to time and measure, named by path (two candidates are often both cards.onnx) and,
    with `--regions both`, by whether they read only the parts with detail."""
    scale = ScaleConfig(long_side=args.long_side)
    models: dict[str, Detector] = {}
    for path in [args.model, *args.also]:
        for mode in ("on", "off") if args.regions == "both" else (args.regions,):
            name = str(path) + (" (whole photo)" if mode == "off" and args.regions == "both" else "")
            models[name] = Detector(path, threads=args.threads, scale=scale,
                                    regions=RegionConfig(enabled=mode == "on"))
    return models


def _time(args: argparse.Namespace, models: dict[str, Detector], photo: Path, weights: Path) -> None:
    """Print each reader's median time for the speed photo and its ratio to Ultralytics timed in turn."""
    work = vision.open_photo(photo, long_side=args.long_side).image.shape
    imgsz = max(work[:2])
    timer = None
    if not Path(args.train_python).exists() or not weights.exists():
        print(f"Ultralytics comparison skipped (python {args.train_python} or weights {weights} missing)")
    else:
        timer = UltralyticsTimer(args.train_python, weights, photo, imgsz, args.threads)
    try:
        medians, ul, placed = time_interleaved(models, photo, args.runs, timer)
    finally:
        if timer is not None:
            timer.close()
    for name, med in medians.items():
        print(f"speed {name}: file -> TableRead, 4000x3000 four-seat photo: median "
              f"{1000 * med:.0f} ms (target < 1000), {placed[name]} cards placed")
    if ul:
        print(f"Ultralytics predict ({weights.name}, imgsz {imgsz}, {args.threads} torch threads, timed "
              f"in turn with ours): median {1000 * ul:.0f} ms")
        for name, med in medians.items():
            print(f"ratio {name}: Ultralytics / ours = {ul / med:.2f}x (target >= 2)")


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if not args.model.exists():
        print(f"no model at {args.model}: train and export it first (see vision/train.py)")
        return 1
    weights = args.weights or next((p for p in (REPO / "models" / "best.pt", REPO / "models" / "last.pt")
                                    if p.exists()), REPO / "models" / "best.pt")
    # Render every generated photo before any onnxruntime session exists: the generator forks worker
    # processes, and a fork taken after onnxruntime started its threads hung here.
    photo = speed_photo()
    if not args.skip_e2e:
        generate(BENCH / f"e2e-{args.seed}-{args.tables}-g{benchmark_fingerprint()}", args.tables, args.seed)
    models = _detectors(args)
    print(f"model {args.model}, long side {args.long_side}, "
          f"{args.threads} threads, regions {args.regions}")
    _time(args, models, photo, weights)
    for name, det in models.items():
        if not args.skip_e2e:
            end_to_end(det, args.tables, args.seed, f"end to end {name}")
        if not args.skip_real:
            real_f1(det, f"real photos {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
