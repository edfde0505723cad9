"""Where every card lies on the table plane, scene by scene, as players really lay them.

A reveal: each seat puts its three rows (3/5/5) in front of itself, every card of a row
overlapping the previous one from the right so the top-left index stays readable, the rows
turned to face the player (so across the table they are upside down). Close-ups, loose piles
and empty tables are the other scene kinds. Everything here is geometry; nothing is drawn.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.classes import CLASS_NAMES, SUITS

from .decks import Deck, index_height_frac

ROWS = (("head", 3), ("middle", 5), ("tail", 5))
CARDS52 = list(CLASS_NAMES[:52])
# a cascaded hand's step in card widths: down to an eighth leaves little more than the index showing
CASCADE_STEP = (0.12, 0.45)


@dataclass
class Placed:
    """One card on the table: ``M`` maps face pixels to canvas pixels (2x3 affine)."""

    card: str
    deck: Deck
    M: np.ndarray
    seat: int | None = None
    row: str | None = None
    position: int = 0
    back: bool = False  # face down: drawn (it covers what lies under it), never labelled

    def corners(self) -> np.ndarray:
        """Face corners on the canvas: top-left, top-right, bottom-right, bottom-left."""
        h, w = self.deck.face(self.card).shape[:2]
        return apply(self.M, np.array([[0, 0], [w, 0], [w, h], [0, h]], float))


@dataclass
class Occluder:
    """Something lying over cards (hand, phone, chip, paper): a filled polygon, drawn after cards."""

    poly: np.ndarray
    colour: tuple[int, int, int]
    kind: str


@dataclass
class Layout:
    kind: str
    cards: list[Placed]
    occluders: list[Occluder] = field(default_factory=list)
    seats: list[dict] = field(default_factory=list)
    deck_size: int = 52
    decks: int = 1


def apply(M: np.ndarray, pts: np.ndarray) -> np.ndarray:
    return pts @ M[:, :2].T + M[:, 2]


def rot2(deg: float) -> np.ndarray:
    """Rotation turning a card's 'up' CCW on screen by ``deg`` (image y axis points down)."""
    t = np.deg2rad(deg)
    c, s = np.cos(t), np.sin(t)
    return np.array([[c, s], [-s, c]])


def up_vector(deg: float) -> np.ndarray:
    """Image direction of a card's top when turned by ``deg`` (0: up, 90: left, 180: down)."""
    t = np.deg2rad(deg)
    return np.array([-np.sin(t), -np.cos(t)])


def place(face_wh: tuple[int, int], centre: np.ndarray, angle: float, height: float) -> np.ndarray:
    """Affine map putting a face of size ``face_wh`` at ``centre``, turned ``angle``, ``height`` px tall."""
    fw, fh = face_wh
    s = height / fh
    R = rot2(angle) * s
    t = np.asarray(centre, float) - R @ np.array([fw / 2, fh / 2])
    return np.c_[R, t]


def deal(rng: np.random.Generator, n: int, jokers: bool, have: Deck) -> tuple[list[str], int, int]:
    """``n`` cards from one shuffled deck: 52 (54 with ``jokers``), or for more than that (five players)
    65: the 52 and a fifth copy of one suit's 13 cards, drawn at random, without jokers (the rules'
    five-player game). Returns the cards, the deck's size and 1 (one deck)."""
    size = 52 + (2 if jokers else 0)
    if n <= size:
        deck = [c for c in CARDS52 + (["BJ", "SJ"] if jokers else []) if have.has(c)]
    else:
        suit = SUITS[int(rng.integers(len(SUITS)))]
        deck = [c for c in CARDS52 + [c for c in CARDS52 if c[1] == suit] if have.has(c)]
        size = len(deck)
    order = rng.permutation(len(deck))[:n]
    return [deck[i] for i in order], size, 1


def _face_wh(deck: Deck, card: str) -> tuple[int, int]:
    h, w = deck.face(card).shape[:2]
    return w, h


# ---- one seat's three rows -----------------------------------------------------------------


@dataclass
class SeatCards:
    """A seat's cards in the seat's own frame (x right, y down, player below), unit = card height."""

    cards: list[tuple[str, str, int, np.ndarray, float]]  # card, row, position, centre, angle
    extent: np.ndarray  # (4, 2) bounding rectangle corners around (0, 0)
    head_far: bool


def seat_rows(rng: np.random.Generator, cards: list[str], aspect: float) -> SeatCards:
    """Three overlapping rows (3/5/5); the next card covers the right part of the previous.

    ``cards`` are head (0:3), middle (3:8), tail (8:13). The head row is usually laid farthest
    from the player, sometimes nearest; rows are drawn far to near, so a nearer row may cover the
    bottom of the one behind it (never its top-left indices).
    """
    head_far = bool(rng.random() < 0.8)
    want = {"head": cards[0:3], "middle": cards[3:8], "tail": cards[8:13]}
    order = ROWS if head_far else ROWS[::-1]
    spread = rng.random() < 0.08  # rows laid without overlap
    fan = rng.random() < 0.25  # rows bent into a slight arc
    out = []
    y = 0.0
    for name, n in order:
        step = rng.uniform(1.03, 1.2) * aspect if spread else rng.uniform(0.26, 0.62) * aspect
        row_ang = rng.normal(0, 2.5)
        x0 = -(n - 1) * step / 2 + rng.normal(0, 0.08)
        fan_step = rng.uniform(2, 6) if fan else 0.0
        R = rot2(row_ang)
        for j, c in enumerate(want[name]):
            ang = row_ang + rng.normal(0, 1.5) - (j - (n - 1) / 2) * fan_step
            dy = abs(j - (n - 1) / 2) ** 2 * fan_step * 0.004
            centre = R @ np.array([x0 + j * step + rng.normal(0, 0.01), y + dy + rng.normal(0, 0.015)])
            out.append((c, name, j, centre, ang))
        y += rng.uniform(0.72, 1.2)
    pts = np.concatenate([_card_poly(c, a, aspect) for _, _, _, c, a in out])
    mid = (pts.min(axis=0) + pts.max(axis=0)) / 2
    out = [(c, r, j, ctr - mid, a) for c, r, j, ctr, a in out]
    lo, hi = pts.min(axis=0) - mid, pts.max(axis=0) - mid
    extent = np.array([[lo[0], lo[1]], [hi[0], lo[1]], [hi[0], hi[1]], [lo[0], hi[1]]])
    return SeatCards(out, extent, head_far)


def _card_poly(centre: np.ndarray, angle: float, aspect: float) -> np.ndarray:
    half = np.array([[-aspect / 2, -0.5], [aspect / 2, -0.5], [aspect / 2, 0.5], [-aspect / 2, 0.5]])
    return half @ rot2(angle).T + centre


def _to_table(
    sc: SeatCards, deck: Deck, seat: int, orient: float, centre: np.ndarray, h: float
) -> list[Placed]:
    R = rot2(orient)
    out = []
    for card, row, j, c, a in sc.cards:
        pos = centre + R @ (c * h)
        out.append(Placed(card, deck, place(_face_wh(deck, card), pos, orient + a, h), seat, row, j))
    return out


def _ray_to_poly(o: np.ndarray, d: np.ndarray, poly: np.ndarray) -> float:
    """Distance from ``o`` along unit ``d`` to the border of convex ``poly``."""
    best = np.inf
    for k in range(len(poly)):
        a, b = poly[k], poly[(k + 1) % len(poly)]
        e = b - a
        den = d[0] * (-e[1]) - d[1] * (-e[0])
        if abs(den) < 1e-9:
            continue
        rhs = a - o
        t = (rhs[0] * (-e[1]) - rhs[1] * (-e[0])) / den
        u = (d[0] * rhs[1] - d[1] * rhs[0]) / den
        if t > 0 and -1e-6 <= u <= 1 + 1e-6:
            best = min(best, t)
    return float(best)


def _overlap(a: np.ndarray, b: np.ndarray) -> bool:
    area, _ = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))
    return area > 0


def table_layout(
    rng: np.random.Generator, deck: Deck, visible: np.ndarray, scale: float, n_seats: int | None = None
) -> Layout:
    """1 to 5 seats around the table; seat 0 at the bottom, then clockwise (left, top, right)."""
    if n_seats is None:
        n_seats = int(rng.choice([1, 2, 3, 4, 5], p=[0.1, 0.2, 0.25, 0.3, 0.15]))
    jokers = rng.random() < 0.3 and deck.has("BJ") and deck.has("SJ")
    cards, deck_size, decks = deal(rng, 13 * n_seats, jokers, deck)
    centre = visible.mean(axis=0) + rng.normal(0, 0.03, 2) * np.ptp(visible, axis=0)
    aspect = _face_wh(deck, cards[0])[0] / _face_wh(deck, cards[0])[1]
    frac = index_height_frac(deck, cards)
    h = rng.uniform(12, 40) * scale / frac
    seats = [seat_rows(rng, cards[13 * k : 13 * k + 13], aspect) for k in range(n_seats)]
    orients = [(-k * 360 / n_seats + rng.normal(0, 5)) % 360 for k in range(n_seats)]
    orients[0] = rng.normal(0, 4) % 360
    for _ in range(12):
        polys, centres, ok = [], [], True
        for sc, ori in zip(seats, orients, strict=True):
            ext = sc.extent * h @ rot2(ori).T
            d = -up_vector(ori)
            reach = _ray_to_poly(centre, d, visible)
            half = float(np.max(ext @ d))
            r = reach - half - rng.uniform(0.0, 0.06) * h * 3
            inner = float(np.max(ext @ -d))
            if n_seats > 1 and r < inner + 0.15 * h:
                ok = False
            if n_seats == 1:
                r = rng.uniform(0, max(0.0, r))
            c = centre + d * max(r, 0.0)
            polys.append(ext + c)
            centres.append(c)
        if ok and n_seats > 1:
            ok = not any(_overlap(polys[a], polys[b]) for a in range(n_seats) for b in range(a + 1, n_seats))
        if ok:
            break
        h *= 0.88
    placed: list[Placed] = []
    seat_meta = []
    for k, (sc, ori, c) in enumerate(zip(seats, orients, centres, strict=True)):
        placed += _to_table(sc, deck, k, ori, c, h)
        seat_meta.append(
            {"seat": k, "orientation_deg": float(ori), "center": c.tolist(), "head_far": sc.head_far}
        )
    return Layout("table", placed, seats=seat_meta, deck_size=deck_size, decks=decks)


def seat_layout(rng: np.random.Generator, deck: Deck, visible: np.ndarray, scale: float) -> Layout:
    """Close-up of one seat's three rows filling much of the frame (indices 40-240 px at 1280)."""
    jokers = rng.random() < 0.3 and deck.has("BJ") and deck.has("SJ")
    cards, deck_size, decks = deal(rng, 13, jokers, deck)
    aspect = _face_wh(deck, cards[0])[0] / _face_wh(deck, cards[0])[1]
    sc = seat_rows(rng, cards, aspect)
    r = rng.random()
    ori = (
        rng.normal(0, 6)
        if r < 0.6
        else (rng.choice([90, 180, 270]) + rng.normal(0, 6) if r < 0.85 else rng.uniform(0, 360))
    )
    ori = float(ori % 360)
    centre = visible.mean(axis=0)
    ext = sc.extent @ rot2(ori).T
    span = np.ptp(ext, axis=0)
    vis = np.ptp(visible, axis=0)
    h = float(np.min(vis / span)) * rng.uniform(0.7, 2.2)  # >1: zoomed in, rows run out of frame
    frac = index_height_frac(deck, cards)
    h = min(h, 240 * scale / frac)
    c = centre + rng.normal(0, 0.05, 2) * vis
    placed = _to_table(sc, deck, 0, ori, c, h)
    meta = [{"seat": 0, "orientation_deg": ori, "center": c.tolist(), "head_far": sc.head_far}]
    return Layout("seat", placed, seats=meta, deck_size=deck_size, decks=decks)


def pile_layout(rng: np.random.Generator, deck: Deck, visible: np.ndarray, scale: float) -> Layout:
    """A few loose cards (up to a whole hand of 13): scattered, fanned in a hand, or cascaded in a
    line with one step (`cascade_pose`), as a player spreads a hand on the table; any angle, often
    overlapping."""
    jokers = rng.random() < 0.4 and deck.has("BJ") and deck.has("SJ")
    n = int(rng.integers(1, 14))
    cards, deck_size, decks = deal(rng, n, jokers, deck)
    frac = index_height_frac(deck, cards)
    h = rng.uniform(40, 240) * scale / frac
    vis = np.ptp(visible, axis=0)
    h = min(h, float(vis.min()) * 0.9)
    lo = visible.min(axis=0)
    c0 = visible.mean(axis=0)
    mode = rng.choice(["scatter", "fan", "cascade"], p=[0.4, 0.2, 0.4])
    step_x, step_y = rng.uniform(*CASCADE_STEP), rng.uniform(-0.05, 0.2)  # card widths, card heights
    placed = []
    base = rng.uniform(0, 360) if rng.random() < 0.5 else rng.normal(0, 15)
    for j, card in enumerate(cards):
        wh = _face_wh(deck, card)
        if mode == "scatter":
            pos = lo + rng.uniform(0.1, 0.9, 2) * vis
            ang = base + rng.normal(0, 40)
        elif mode == "fan":
            spread = rng.uniform(6, 15)
            ang = base + (j - (n - 1) / 2) * spread
            pivot = c0 + up_vector(base) * -0.6 * h
            pos = pivot + up_vector(ang) * 0.6 * h
        else:
            pos, ang = cascade_pose(rng, j, n, wh, h, c0, base, (step_x, step_y))
        placed.append(Placed(card, deck, place(wh, pos, ang, h), None, None, j))
    return Layout("pile", placed, deck_size=deck_size, decks=decks)


def cascade_pose(
    rng: np.random.Generator, j: int, n: int, wh: tuple[float, float], h: float, centre: np.ndarray,
    base: float, step: tuple[float, float],
) -> tuple[np.ndarray, float]:
    """Centre and angle of card ``j`` of a line of ``n`` laid with one step: ``step`` is (card widths
    along the line, card heights across it), the line turned ``base`` degrees about ``centre``."""
    d = np.array([step[0] * wh[0] / wh[1], step[1]]) * h
    pos = centre + rot2(base) @ ((j - (n - 1) / 2) * d + rng.normal(0, 0.01, 2) * h)
    return pos, base + rng.normal(0, 2)


def occluders(rng: np.random.Generator, visible: np.ndarray, scale: float, n: int) -> list[Occluder]:
    """Hands, phones, chips, paper and keyboards that end up lying over cards or beside them."""
    out = []
    lo, vis = visible.min(axis=0), np.ptp(visible, axis=0)
    for _ in range(n):
        kind = str(rng.choice(["hand", "phone", "chip", "paper", "keyboard"], p=[0.25, 0.2, 0.2, 0.2, 0.15]))
        c = lo + rng.uniform(0.05, 0.95, 2) * vis
        ang = rng.uniform(0, 180)
        if kind == "chip":
            r = rng.uniform(15, 40) * scale
            t = np.linspace(0, 2 * np.pi, 24, endpoint=False)
            poly = c + r * np.c_[np.cos(t), np.sin(t)]
            col = tuple(int(v) for v in rng.integers(0, 255, 3))
        elif kind == "hand":
            a, b = rng.uniform(60, 160) * scale, rng.uniform(40, 90) * scale
            t = np.linspace(0, 2 * np.pi, 32, endpoint=False)
            poly = c + (np.c_[a * np.cos(t), b * np.sin(t)] @ rot2(ang).T)
            col = (int(rng.integers(90, 170)), int(rng.integers(120, 190)), int(rng.integers(170, 235)))
        else:
            sizes = {
                "phone": ((35, 60), (70, 120)),
                "paper": ((80, 200), (100, 260)),
                "keyboard": ((350, 500), (110, 160)),
            }
            (a0, a1), (b0, b1) = sizes[kind]
            a, b = rng.uniform(a0, a1) * scale, rng.uniform(b0, b1) * scale
            if kind == "keyboard":
                ang = rng.normal(0, 10) + (90 if rng.random() < 0.2 else 0)
            poly = c + np.array([[-a, -b], [a, -b], [a, b], [-a, b]]) @ rot2(ang).T
            grey = {"phone": (10, 50), "paper": (220, 255), "keyboard": (15, 45)}[kind]
            col = (int(rng.integers(*grey)),) * 3

        out.append(Occluder(poly, col, kind))  # type: ignore[arg-type]
    return out


def backs(
    rng: np.random.Generator,
    back_deck: Deck,
    visible: np.ndarray,
    height: float,
    n: int,
    around: np.ndarray | None,
) -> list[Placed]:
    """``n`` face-down cards: a squared-up stack (the undealt deck) or a loose spread."""
    wh = _face_wh(back_deck, "back")
    lo, vis = visible.min(axis=0), np.ptp(visible, axis=0)
    c = around if around is not None else lo + rng.uniform(0.15, 0.85, 2) * vis
    ang = rng.uniform(0, 360)
    out = []
    stack = rng.random() < 0.5
    for j in range(n):
        if stack:
            pos = c + rng.normal(0, 0.01 * height, 2)
            a = ang + rng.normal(0, 2)
        else:
            pos = c + rng.normal(0, 0.5 * height, 2)
            a = ang + rng.normal(0, 25)
        out.append(Placed("back", back_deck, place(wh, pos, a, height), None, None, j, back=True))
    return out
