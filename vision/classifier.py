"""Second stage: classify each detected corner index from its own crop (onnxruntime, no torch).

Why a second stage: the 54-way YOLO head learns boxes quickly but its classification lags far behind
on a CPU budget. A small CNN that only ever sees one index, square and at a fixed size, learns the
55-way question (54 cards + "not an index") from the same synthetic data in minutes, and its
"background" answer lets the detector run at a low box threshold and still reject false boxes.

The crop (`vision.crops.crop_box`) is shared with `datasets.crops`, so training and runtime crops
match exactly.

The ONNX model takes `crops` N x 3 x S x S float32 RGB in 0..1 and returns N x 55 logits; its
metadata holds `names` (the 55 class names, background last) and `crop_size`.

The namer may be a committee of such models (`IndexClassifier([a, b])`, or "a.onnx+b.onnx" where a
file is named): the first reads every crop, the others only the crops it reads as a possible index
and is unsure of (`IndexClassifier.probabilities`; about one proposal in seven on a table photo), and
there the reads are combined as a normalised geometric mean. Two nets trained apart make different
mistakes, and most proposals are background or an index that one read settles, so the second opinion
costs less than re-reading those crops at two more crop contexts, which is what a single net does.
The first member also reads those unsure crops turned a quarter either way (`REFINE_TURNS`): the
nets were trained on indices at every angle, so a turned crop is a fresh look at the same glyph, and
a read that is unsure at one angle is often sure at another. The other members read each crop once,
as it lies: their turned reads add as little to the first net's as a half turn adds to the two
quarter turns, and each would cost another read of every unsure crop.
Which crops count as unsure is a band of the first read: unlike background (P(bg) <
`REFINE_BELOW_BG`), leaning to a card (top >= `REFINE_FROM_TOP`) without being sure of it (top <
`REFINE_BELOW_TOP`). Outside it, the extra reads change almost no index's outcome on the tuning sets,
and inside it they turn the real photos' unsure reads into sure ones.
The shipped committee is `NAMER_FILES` beside the detector's model.
"""

from __future__ import annotations

import ast
import os
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from .classes import CLASS_NAMES
from .crops import CONTEXT, CROP_SIZE, crop_box, crops_to_blob
from .sessions import open_session

BACKGROUND = "bg"
CLASSIFIER_NAMES: tuple[str, ...] = (*CLASS_NAMES, BACKGROUND)
REFINE_CONTEXTS = (0.1, 0.2)  # a single net's second and third reads of a likely index (`probabilities`)
REFINE_BELOW_BG = 0.3  # a second read for a crop this unlike background ...
REFINE_BELOW_TOP = 0.9  # ... whose first read is unsure (no card as likely as this) ...
REFINE_FROM_TOP = 0.2  # ... but leans to some card (a crop spread thinner comes out of no re-read sure)
REFINE_TURNS = (1, 3)  # quarter turns (either way) of an unsure crop that the first member reads too


#: The shipped namer: the first reads every crop, the second re-reads the possible indices.
NAMER_FILES = ("index_classifier.onnx", "index_classifier_2.onnx")
DEFAULT_NAMERS = tuple(Path(__file__).resolve().parent.parent / "models" / name for name in NAMER_FILES)
CLASSIFIER_ENV = "CARDS_CLASSIFIER"  # another namer instead of the one beside the model ("a+b": a committee)


def softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def namer_paths(option: str | Path | Sequence[str | Path]) -> tuple[Path, ...]:
    """The files of a namer given as one path, "a.onnx+b.onnx" (a committee) or a sequence of paths.

    >>> [p.name for p in namer_paths("models/a.onnx+models/b.onnx")]
    ['a.onnx', 'b.onnx']
    """
    if isinstance(option, (str, Path)):
        return tuple(Path(part) for part in str(option).split("+"))
    return tuple(Path(p) for p in option)


def resolve_classifier(option: str | Path, model_path: Path | None = None) -> tuple[Path, ...] | None:
    """Which namer files a detector uses (the caller says what a missing file means).

    - a path, or "a.onnx+b.onnx": those files (`namer_paths`).
    - "auto": `$CARDS_CLASSIFIER` when set, else the `NAMER_FILES` beside the detector's own model
      file that exist, when the first of them does (else None). A namer is paired with the detector
      it sits beside, so a detector loaded from elsewhere (a test fixture, a candidate checkpoint) is
      not silently combined with an unrelated namer.
    """
    if str(option) != "auto":
        return namer_paths(option)
    env = os.environ.get(CLASSIFIER_ENV, "")
    if env:
        return namer_paths(env)
    if model_path is None:
        return None
    siblings = [Path(model_path).parent / name for name in NAMER_FILES]
    if not siblings[0].exists():
        return None
    return tuple(p for p in siblings if p.exists())


def _open_session(path: Path, threads: int):
    if not path.exists():
        raise FileNotFoundError(f"index classifier not found: {path}")
    return open_session(path, threads)


def geometric_mean(probs: Sequence[np.ndarray]) -> np.ndarray:
    """Row-wise normalised geometric mean of several N x C probability arrays (a committee's read).

    >>> geometric_mean([np.array([[0.8, 0.2]]), np.array([[0.2, 0.8]])]).round(2).tolist()
    [[0.5, 0.5]]
    """
    logs = sum(np.log(np.clip(p.astype(np.float64), 1e-12, 1.0)) for p in probs) / len(probs)
    e = np.exp(logs - logs.max(axis=1, keepdims=True))
    return (e / e.sum(axis=1, keepdims=True)).astype(np.float32)


class IndexClassifier:
    """Reads the card of each box from its crop; create once (the ONNX sessions load once).

    `model` is one ONNX file or a committee (several, or "a.onnx+b.onnx"; see the module's
    docstring); by default the shipped committee (`DEFAULT_NAMERS`). `session` may be any object
    with onnxruntime's `get_inputs()` / `run()`, or a sequence of them for a committee (tests pass
    fakes).
    """

    def __init__(self, model: str | Path | Sequence[str | Path] | None = None, *, session=None,
                 threads: int = 2, batch: int = 256):
        if session is None:
            self.model_paths: tuple[Path, ...] = namer_paths(model or DEFAULT_NAMERS)
            # the other members read few crops, on the calling thread alone: a second session's thread
            # pool spins against the first's, and on two cores both then read ~1.4x slower
            self.sessions = [_open_session(p, threads if k == 0 else 1)
                             for k, p in enumerate(self.model_paths)]
        else:
            self.model_paths = ()
            self.sessions = list(session) if isinstance(session, (list, tuple)) else [session]
        self.names, self.size = self._spec(self.sessions[0])
        self.context = CONTEXT
        self.refine_contexts: tuple[float, ...] = REFINE_CONTEXTS
        self.turns: tuple[int, ...] = REFINE_TURNS
        self.batch = batch
        if list(self.names[:-1]) != list(CLASS_NAMES) or self.names[-1] != BACKGROUND:
            raise ValueError("index classifier classes are not CLASS_NAMES + background")
        for k, other in enumerate(self.sessions[1:], 1):
            if self._spec(other) != (self.names, self.size):
                where = self.model_paths[k] if self.model_paths else f"member {k}"
                raise ValueError(f"namer {where} does not read the first member's classes at its crop size")

    @classmethod
    def _spec(cls, session) -> tuple[tuple[str, ...], int]:
        """A model's class names and crop size (its input's fixed side, else its metadata's)."""
        names, meta_size = cls._metadata(session)
        side = session.get_inputs()[0].shape[-1]
        return names, int(side) if isinstance(side, int) else (meta_size or CROP_SIZE)

    @staticmethod
    def _metadata(session) -> tuple[tuple[str, ...], int | None]:
        try:
            meta = session.get_modelmeta().custom_metadata_map
        except AttributeError:
            return CLASSIFIER_NAMES, None
        names = tuple(ast.literal_eval(meta["names"])) if meta.get("names") else CLASSIFIER_NAMES
        size = int(meta["crop_size"]) if str(meta.get("crop_size", "")).isdigit() else None
        return names, size

    def probabilities(self, image: np.ndarray, boxes: np.ndarray) -> np.ndarray:
        """N x 55 softmax probabilities (background last) for xyxy `boxes` in `image` pixels.

        Boxes that may be an index (P(background) < `REFINE_BELOW_BG`) and whose first read leans to a
        card without being sure of it (`REFINE_FROM_TOP` <= top card < `REFINE_BELOW_TOP`) are read
        again, and all their reads are combined as one normalised geometric mean: a committee's other
        members read the same crops (two nets trained apart make different mistakes); a single net
        reads crops with a little less and a little more context (`REFINE_CONTEXTS`: the detector's
        box is never exact, and one crop whose edge cuts a stroke can flip a rank); and the first
        member reads each crop turned by `turns` quarter turns.
        Most proposals are plain background or read surely the first time and are read once.
        """
        if len(boxes) == 0:
            return np.zeros((0, len(self.names)), np.float32)
        blob = self._crops(image, boxes, self.context)
        p = self._member(self.sessions[0], blob)
        top = p[:, :-1].max(1)
        unsure = (p[:, -1] < REFINE_BELOW_BG) & (top >= REFINE_FROM_TOP) & (top < REFINE_BELOW_TOP)
        idx = np.flatnonzero(unsure)
        if len(idx) == 0:
            return p
        some = blob[idx]
        if len(self.sessions) > 1:
            views = [some]
        else:  # a lone net's second opinion: the same box cut a little wider or tighter
            views = [some, *(self._crops(image, boxes[idx], c) for c in self.refine_contexts)]
        turned = [np.rot90(some, k, axes=(2, 3)) for k in self.turns]
        reads = [p[idx]]
        for m, session in enumerate(self.sessions):
            parts = [*views[1:], *turned] if m == 0 else [some]
            if parts:
                reads.extend(np.split(self._member(session, np.concatenate(parts)), len(parts)))
        p[idx] = geometric_mean(reads)
        return p

    def _crops(self, image: np.ndarray, boxes: np.ndarray, context: float) -> np.ndarray:
        """The boxes' crops as one N x 3 x S x S blob (`crops_to_blob`)."""
        return crops_to_blob([crop_box(image, b, self.size, context) for b in boxes])

    def _member(self, session, blob: np.ndarray) -> np.ndarray:
        out = []
        name = session.get_inputs()[0].name
        for i in range(0, len(blob), self.batch):
            logits = session.run(None, {name: np.ascontiguousarray(blob[i : i + self.batch])})[0]
            out.append(softmax(np.asarray(logits, np.float64)))
        return np.concatenate(out).astype(np.float32)
