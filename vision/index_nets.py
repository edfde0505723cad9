"""The namer's nets (`IndexNet`, `YoloIndexNet` with its `FactoredHead`), their checkpoints and their
ONNX export (extra `train`: torch). Training is `vision.train_classifier`; the runtime reads the ONNX
with `vision.classifier` and needs none of this.

A `YoloIndexNet` is pickled whole in its checkpoint (its Ultralytics layers with it), so a checkpoint
names the classes by module: `load_checkpoint` maps the names older checkpoints used to this module.
"""

from __future__ import annotations

import pickle
import types
from pathlib import Path

import torch
from torch import nn

from vision.classes import RANKS, SUITS
from vision.classifier import CLASSIFIER_NAMES
from vision.train import offline_env

NETS = ("IndexNet", "YoloIndexNet", "FactoredHead")


def block(cin: int, cout: int, stride: int = 1) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(True))


class IndexNet(nn.Module):
    """A plain CNN in pure torch: full-resolution first layers (a 56 px crop's suit is ~9 px, so the
    first convolutions see it unshrunk), then 28 -> 14 -> 7 feature maps, global average pool, and a
    linear or a rank + suit + card head (`factored`) to 55 logits."""

    def __init__(self, n_classes: int = len(CLASSIFIER_NAMES), width: int = 32, factored: bool = False):
        super().__init__()
        w = width
        self.features = nn.Sequential(
            block(3, w), block(w, w, 2), block(w, w),
            block(w, 2 * w, 2), block(2 * w, 2 * w),
            block(2 * w, 4 * w, 2), block(4 * w, 4 * w),
        )
        self.factored = factored
        plain = nn.Sequential(nn.Dropout(0.1), nn.Linear(4 * w, n_classes))
        self.head = FactoredHead(4 * w) if factored else plain

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.features(x).mean(dim=(2, 3)))


def factor_matrix() -> torch.Tensor:
    """(13 ranks + 4 suits + 55 classes) x 55: how the factored head's parts add up to each class's logit.

    A card's logit is its rank's term + its suit's term + its own term; jokers and background have
    only their own. So every rank is learned from the crops of all four suits and every suit from all
    thirteen ranks, which is what a deck design the classifier never saw shares with the ones it did.
    """
    n = len(CLASSIFIER_NAMES)
    m = torch.zeros(len(RANKS) + len(SUITS) + n, n)
    for j, name in enumerate(CLASSIFIER_NAMES):
        m[len(RANKS) + len(SUITS) + j, j] = 1.0
        if len(name) == 2 and name[0] in RANKS and name[1] in SUITS:
            m[RANKS.index(name[0]), j] = 1.0
            m[len(RANKS) + SUITS.index(name[1]), j] = 1.0
    return m


class FactoredHead(nn.Module):
    """Linear to rank, suit and class terms, summed per class by a fixed matrix (`factor_matrix`);
    exports to ONNX as two matrix products, so the runtime still reads 55 logits."""

    def __init__(self, features: int):
        super().__init__()
        self.register_buffer("mix", factor_matrix())
        self.drop = nn.Dropout(0.1)
        self.linear = nn.Linear(features, self.mix.shape[0])

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.linear(self.drop(x)) @ self.mix


class YoloIndexNet(nn.Module):
    """The first five layers of a trained YOLOv8 backbone (stride 8, already tuned to corner indices
    at this very scale), one more conv block, global average pool, linear to 55 logits.

    Why: from scratch the small CNN learns too slowly on a shared 2-core CPU; a trained YOLO's early
    layers are a warm start that costs no extra data and little compute per 56 px crop.
    """

    def __init__(self, weights: Path, n_classes: int = len(CLASSIFIER_NAMES), cut: int = 5,
                 factored: bool = False):
        super().__init__()
        offline_env()  # unpickling imports Ultralytics: keep it offline and inside the project cache
        ckpt = torch.load(weights, map_location="cpu", weights_only=False)
        yolo = (ckpt.get("ema") or ckpt["model"]).float()
        layers = list(yolo.model[:cut])
        with torch.no_grad():
            c = nn.Sequential(*layers)(torch.zeros(1, 3, 40, 40)).shape[1]
        self.features = nn.Sequential(*layers, block(c, 192))
        plain = nn.Sequential(nn.Dropout(0.1), nn.Linear(192, n_classes))
        self.head = FactoredHead(192) if factored else plain
        for m in self.modules():  # Ultralytics may leave layers frozen / in inference mode
            for prm in m.parameters(recurse=False):
                prm.requires_grad_(True)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.features(x).mean(dim=(2, 3)))


def export_onnx(model: nn.Module, path: Path, size: int) -> Path:
    """Opset 17, dynamic batch, class names and crop size in the metadata."""
    import onnx

    model.eval()
    path.parent.mkdir(parents=True, exist_ok=True)
    dummy = torch.zeros(2, 3, size, size)
    kw = dict(input_names=["crops"], output_names=["logits"], opset_version=17,
              dynamic_axes={"crops": {0: "batch"}, "logits": {0: "batch"}})
    try:
        torch.onnx.export(model, (dummy,), str(path), dynamo=False, **kw)
    except TypeError:  # an older torch without the `dynamo` switch
        torch.onnx.export(model, (dummy,), str(path), **kw)
    m = onnx.load(str(path))
    for k, v in {"names": repr(list(CLASSIFIER_NAMES)), "crop_size": str(size)}.items():
        p = m.metadata_props.add()
        p.key, p.value = k, v
    onnx.save(m, str(path))
    return path


class _Unpickler(pickle.Unpickler):
    """Reads this module's classes where a checkpoint names them elsewhere: the shipped checkpoints
    were written when the nets lived in `vision.train_classifier` (some run as `__main__`)."""

    def find_class(self, module: str, name: str):
        if module in ("__main__", "vision.train_classifier") and name in NETS:
            module = __name__
        return super().find_class(module, name)


_PICKLE = types.SimpleNamespace(__name__="pickle", Unpickler=_Unpickler,
                                load=lambda f, **kw: _Unpickler(f, **kw).load())


def load_checkpoint(path: Path) -> tuple[nn.Module, dict]:
    """A checkpoint `vision.train_classifier.save` wrote: its model with its weights, and the checkpoint
    itself (crop `size`, `width`, training `summary` and `history`). A backbone model is pickled whole
    (its Ultralytics layers and this module's classes), so it loads wherever this module imports."""
    offline_env()  # a YoloIndexNet checkpoint unpickles Ultralytics layers
    ckpt = torch.load(path, map_location="cpu", weights_only=False, pickle_module=_PICKLE)
    if "model" in ckpt:
        model = ckpt["model"]
    else:
        model = IndexNet(len(CLASSIFIER_NAMES), ckpt["width"], factored=ckpt.get("factored", False))
    model.load_state_dict(ckpt["state_dict"])
    return model, ckpt
