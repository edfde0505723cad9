"""The camera: a homography from the flat table plane to the photo (tilt, roll, zoom).

Cards are laid out and drawn on the table plane, then the whole plane is warped once. The
canvas is sized to exactly what the photo sees, so no pixel of the photo is left empty.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass
class Camera:
    H: np.ndarray  # 3x3, table-canvas pixels -> image pixels
    canvas: tuple[int, int]  # (width, height) of the table canvas
    visible: np.ndarray  # (4, 2) the image corners seen on the canvas (a convex quad)

    def project(self, pts: np.ndarray) -> np.ndarray:
        """Map (N, 2) canvas points to image points."""
        p = np.c_[pts, np.ones(len(pts))] @ self.H.T
        return p[:, :2] / p[:, 2:3]


def _rot(deg: float) -> np.ndarray:
    t = np.deg2rad(deg)
    c, s = np.cos(t), np.sin(t)
    return np.array([[c, s, 0], [-s, c, 0], [0, 0, 1.0]])


def _trans(x: float, y: float) -> np.ndarray:
    return np.array([[1, 0, x], [0, 1, y], [0, 0, 1.0]])


def random_camera(
    rng: np.random.Generator, size: tuple[int, int], tilt: float, roll: float, zoom: float = 1.0
) -> Camera:
    """Camera looking at the table with ``tilt`` (0 = straight down, ~0.5 = strongly oblique)."""
    w, h = size
    diag = float(np.hypot(w, h))
    # perspective: the far side (direction `toward`) shrinks; w' = 1 + k * (distance along toward)
    toward = rng.uniform(-25, 25) + (180 if rng.random() < 0.1 else 0)
    k = tilt / diag
    P = _rot(-toward) @ np.array([[1, 0, 0], [0, 1, 0], [0, -k, 1.0]]) @ _rot(toward)
    S = np.diag([zoom, zoom, 1.0])
    A = _rot(roll) @ S @ P  # about the origin, which is the table point seen at the image centre
    # canvas: the image corners brought back to the plane
    corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], float) - [w / 2, h / 2]
    Ainv = np.linalg.inv(A)
    q = np.c_[corners, np.ones(4)] @ Ainv.T
    q = q[:, :2] / q[:, 2:3]
    lo = np.floor(q.min(axis=0)) - 2
    hi = np.ceil(q.max(axis=0)) + 2
    cw, ch = int(hi[0] - lo[0]), int(hi[1] - lo[1])
    H = _trans(w / 2, h / 2) @ A @ _trans(lo[0], lo[1])
    return Camera(H=H, canvas=(cw, ch), visible=q - lo)
