"""Train the second-stage index classifier (extra `train`; CPU, or a lent GPU) and export it to ONNX.

    python -m vision.train_classifier --data cache/crops/c7 --backbone cache/pretrained/yolov8s_fall.pt \
        --factored --minutes 90 --out cache/clf/namer.pt --onnx cache/clf/namer.fp32.onnx
    python -m vision.train_classifier --data cache/crops/c7 --init cache/clf/namer.pt --minutes 80 \
        --lr 8e-4 --out cache/clf/namer.pt --onnx cache/clf/namer.fp32.onnx

(the commands that made the shipped namers are in models/MODEL_CARD.md; on a lent GPU,
`scripts/train_namer_gpu.sh` builds the data and trains an `IndexNet` with `--device cuda`).

Why it looks like this:
- The budget is wall-clock (`--minutes`), not epochs: it shares two cores with the detector's
  training, so its speed varies; the learning rate follows a cosine over the elapsed time, so the
  run always ends annealed whenever the budget ends.
- The shipped namers are `YoloIndexNet` (the nets are in `vision.index_nets`; ~0.56 M parameters on
  56 px crops): a corner index is a glyph and a pip, so a small net suffices; it trains on ~100k crops
  in minutes and costs well under a millisecond per proposal at run time. `--factored` gives it the
  rank + suit + card head (`FactoredHead`: each rank learned from all four suits). `IndexNet` is the
  plain CNN a run without `--backbone` or `--init` starts from.
- `--init` continues a checkpoint (the architecture is stored in it) with a fresh optimiser and a new
  cosine schedule: a longer run in several sittings.
- Augmentation on the batch in torch: any multiple of 90 degrees (seats face each other, so the
  detector's box holds the glyph at any orientation) plus a small rotation, scale and shift (an
  imperfect box); brightness, contrast, saturation and per-channel gain kept mild so red stays red;
  blur, a low-resolution round trip and noise (far, small indices). Never a mirror: real indices are
  never mirrored. JPEG is in the crops themselves (`datasets.crops`).
- `--photo-blur` blurs a share of each batch as a phone photo blurs a far seat (`vision.photo_blur`);
  `--teacher` adds the KL divergence from a frozen namer's read of each crop before that blur
  (`distill_loss`), so a warm start learns blurred indices without forgetting what it read sharp.
- The ONNX (opset 17, dynamic batch) carries `names` (55, background last) and `crop_size` in its
  metadata; `vision.classifier.IndexClassifier` checks them.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn
from tqdm import tqdm

from vision.classifier import CLASSIFIER_NAMES
from vision.crops import CROP_SIZE
from vision.index_nets import IndexNet, YoloIndexNet, export_onnx, load_checkpoint
from vision.photo_blur import photo_blur


def as_input(x: torch.Tensor) -> torch.Tensor:
    """N x S x S x 3 uint8 BGR -> N x 3 x S x S float RGB 0..1 (what the runtime feeds). Crops are
    kept as uint8 until a batch is drawn: a few hundred thousand of them as floats would not fit."""
    return x.flip(-1).permute(0, 3, 1, 2).float() / 255.0


INDEX_ASPECT = 0.62  # a corner index (rank over pip) is about this wide for its height


def augment(x: torch.Tensor, g: torch.Generator, wide: float = 0.0) -> torch.Tensor:
    """Random geometry and photometry on a batch of N x 3 x S x S crops in 0..1.

    `wide`: the share of the batch turned by up to 45 degrees (else 15) before the quarter turn, so
    every angle occurs: cards fanned in a hand lie at any angle, and run 8 missed or misread many such
    indices in the real photos. A turned index fills a larger upright box, so its crop (cut around that
    box) shows it smaller: the turn shrinks the glyph by as much.
    """
    n, _, s, _ = x.shape
    dev = x.device

    def u(lo: float, hi: float, *shape: int) -> torch.Tensor:
        return torch.rand(*(shape or (n,)), generator=g, device=dev) * (hi - lo) + lo

    # small (or, for `wide` of the batch, any) rotation, scale, shift; then a multiple of 90 degrees
    small = u(-15, 15)
    if wide > 0:
        m = torch.rand(n, generator=g, device=dev) < wide
        small = torch.where(m, u(-45, 45), small)
    a = small * math.pi / 180
    ang = a + torch.randint(0, 4, (n,), generator=g, device=dev) * (math.pi / 2)
    c, si = torch.cos(a).abs(), torch.sin(a).abs()
    grow = torch.maximum(INDEX_ASPECT * c + si, INDEX_ASPECT * si + c)  # upright box of the turned index
    sc = u(0.88, 1.12) / torch.where(small.abs() > 15, grow, torch.ones_like(grow))
    cos, sin = torch.cos(ang) / sc, torch.sin(ang) / sc
    theta = torch.stack(
        [torch.stack([cos, -sin, u(-0.08, 0.08)], 1), torch.stack([sin, cos, u(-0.08, 0.08)], 1)], 1
    )
    grid = F.affine_grid(theta, list(x.shape), align_corners=False)
    fill = 114 / 255
    x = F.grid_sample(x - fill, grid, mode="bilinear", padding_mode="zeros", align_corners=False) + fill

    # low-resolution round trip for a third of the batch
    m = torch.rand(n, generator=g, device=dev) < 0.33
    if m.any():
        r = int(torch.randint(14, s - 6, (1,), generator=g, device=dev))
        x[m] = F.interpolate(F.interpolate(x[m], size=(r, r), mode="area"), size=(s, s), mode="bilinear")
    # blur for a quarter
    m = torch.rand(n, generator=g, device=dev) < 0.25
    if m.any():
        k = torch.tensor([1.0, 2.0, 1.0], device=dev)
        k = (k[:, None] * k[None, :] / 16).expand(3, 1, 3, 3)
        x[m] = F.conv2d(F.pad(x[m], (1, 1, 1, 1), mode="replicate"), k, groups=3)

    # photometry: brightness, contrast, saturation, mild per-channel gain, noise
    mean = x.mean(dim=(1, 2, 3), keepdim=True)
    x = (x - mean) * u(0.6, 1.4)[:, None, None, None] + mean * u(0.6, 1.3)[:, None, None, None]
    grey = x.mean(dim=1, keepdim=True)
    x = grey + (x - grey) * u(0.5, 1.4)[:, None, None, None]
    x = x * u(0.88, 1.12, n, 3)[:, :, None, None]
    x = x + torch.randn(x.shape, generator=g, device=dev) * u(0, 0.05)[:, None, None, None]
    return x.clamp(0, 1)


def predict(model: nn.Module, x: torch.Tensor, batch: int = 512) -> torch.Tensor:
    """Top class of every uint8 crop, in batches (the whole validation set at once would not fit)."""
    with torch.no_grad():
        return torch.cat([model(as_input(x[i : i + batch])).argmax(1) for i in range(0, len(x), batch)])


def evaluate(
    model: nn.Module, x: torch.Tensor, y: torch.Tensor, src: torch.Tensor,
    xh: torch.Tensor | None = None, yh: torch.Tensor | None = None,
) -> dict:
    """Accuracy overall and per source; on the hard (proposal) crops also what the detector cares
    about: cards read right, and background boxes let through as a card."""
    model.eval()
    pred = predict(model, x)
    hpred = None if xh is None else predict(model, xh)
    model.train()
    ok = pred == y
    out = {"acc": float(ok.float().mean())}
    for name, m in (("synth", src == 0), ("real", src == 1)):
        if m.any():
            out[name] = float(ok[m].float().mean())
    if hpred is not None and yh is not None:
        bg = len(CLASSIFIER_NAMES) - 1
        card, back = yh != bg, yh == bg
        if card.any():
            out["hard_cards"] = float((hpred[card] == yh[card]).float().mean())
        if back.any():
            out["hard_bg_leak"] = float((hpred[back] != bg).float().mean())
    return out


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--data", type=Path, help="python -m datasets.crops output (train/val.npz)")
    p.add_argument("--minutes", type=float, default=20.0, help="wall-clock training budget")
    p.add_argument("--steps", type=int, default=0, help="stop after this many steps (0: budget only)")
    p.add_argument("--batch", type=int, default=128)
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--width", type=int, default=32)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--wide-rotation", type=float, default=0.0,
                   help="share of each batch turned by up to 45 degrees (else 15) before the quarter turn")
    p.add_argument("--photo-blur", type=float, default=0.0,
                   help="share of each batch blurred as a photo's far seat is (vision.photo_blur)")
    p.add_argument("--teacher", type=Path, default=None,
                   help="a namer checkpoint whose read of each crop before --photo-blur the net also learns")
    p.add_argument("--distill", type=float, default=1.0, help="weight of the teacher's term (with --teacher)")
    p.add_argument("--eval-every", type=float, default=3.0, help="minutes between validation passes")
    p.add_argument("--backbone", type=Path, default=None,
                   help="start from this YOLOv8 checkpoint's first layers (YoloIndexNet); needs ultralytics")
    p.add_argument("--factored", action="store_true",
                   help="a rank + suit + class head (`FactoredHead`) on a new net")
    p.add_argument("--device", default="cpu", help="cpu, or cuda (bf16 autocast) where a GPU is lent")
    p.add_argument("--init", type=Path, default=None, help="warm start from this .pt (a longer run in parts)")
    p.add_argument("--export-only", action="store_true",
                   help="write the --init checkpoint's ONNX to --onnx and stop (no data, no training)")
    p.add_argument("--extra", type=Path, action="append", default=[],
                   help="more training crops (e.g. python -m datasets.proposals output); repeat")
    p.add_argument("--extra-val", type=Path, action="append", default=[],
                   help="more validation crops, reported apart as 'hard'; repeat")
    p.add_argument("--out", type=Path, default=Path("models/index_classifier.pt"))
    p.add_argument("--onnx", type=Path, default=Path("models/index_classifier.onnx"))
    p.add_argument("--no-export", action="store_true",
                   help="write only the .pt (export later with --export-only), e.g. where onnx is absent")
    return p


@dataclass(frozen=True)
class Crops:
    """Training crops (`xt`, `yt`), validation crops with their source (`xv`, `yv`, `sv`) and the
    hard validation crops reported apart (`xh`, `yh`; None without `--extra-val`); crops are
    N x S x S x 3 uint8 BGR on the training device."""

    xt: torch.Tensor
    yt: torch.Tensor
    xv: torch.Tensor
    yv: torch.Tensor
    sv: torch.Tensor
    xh: torch.Tensor | None
    yh: torch.Tensor | None


def load_crops(data: Path, extra: list[Path], extra_val: list[Path], device: str = "cpu") -> Crops:
    """`datasets.crops`' train/val.npz under `data`, the `extra` training crops appended."""
    def t(a: np.ndarray) -> torch.Tensor:
        return torch.from_numpy(a).to(device)

    tr, va = np.load(data / "train.npz"), np.load(data / "val.npz")
    xs, ys = [tr["x"]], [tr["y"]]
    for path in extra:
        ex = np.load(path)
        xs.append(ex["x"])
        ys.append(ex["y"])
        print(f"+ {len(ex['y'])} training crops from {path}")
    hard = [np.load(f) for f in extra_val]
    return Crops(t(np.concatenate(xs)), t(np.concatenate(ys)).long(), t(va["x"]), t(va["y"]).long(),
                 t(va["src"]).long(),
                 t(np.concatenate([h["x"] for h in hard])) if hard else None,
                 t(np.concatenate([h["y"] for h in hard])).long() if hard else None)


def new_model(args: argparse.Namespace) -> nn.Module:
    """The net to train: warm-started from `--init` (whose width it takes), a YOLOv8 backbone's first
    layers (`--backbone`), or a fresh `IndexNet`."""
    if args.init is not None:
        model, ckpt = load_checkpoint(args.init)
        args.width = ckpt["width"]
        return model
    if args.backbone is not None:
        return YoloIndexNet(args.backbone, factored=args.factored)
    return IndexNet(len(CLASSIFIER_NAMES), args.width, factored=args.factored)


def load_teacher(path: Path, device: str) -> nn.Module:
    """A frozen namer (`--teacher`), in eval mode, on `device`."""
    teacher, _ = load_checkpoint(path)
    teacher.to(device).eval()
    for q in teacher.parameters():
        q.requires_grad_(False)
    return teacher


def distill_loss(logits: torch.Tensor, teacher: nn.Module, sharp: torch.Tensor) -> torch.Tensor:
    """KL divergence from the teacher's read of the crops as they were before `photo_blur` (`sharp`)
    to the net's read of them as blurred (`logits`), averaged over the batch.

    Why: a warm start on a few hundred thousand fresh crops with a new augmentation forgets what the
    net had: it reads sharp indices of the rendered tables worse and real chips and face art as cards
    more often. Matching the teacher's full read (its background share and its runner-up cards too)
    on every crop holds those where they were, and on a blurred crop teaches the read the teacher
    gives the same crop sharp."""
    with torch.no_grad():
        target = F.log_softmax(teacher(sharp).float(), dim=1)
    return F.kl_div(F.log_softmax(logits, dim=1), target, log_target=True, reduction="batchmean")


def fit(model: nn.Module, crops: Crops, args: argparse.Namespace, size: int) -> tuple[int, int, list]:
    """Train for `--minutes` (or `--steps`) on a cosine schedule with a 200-step warm-up, evaluating
    and checkpointing every `--eval-every` minutes; returns steps, crops seen and the evaluations."""
    g = torch.Generator(device=args.device).manual_seed(args.seed)
    cuda = args.device.startswith("cuda")
    n_params = sum(p.numel() for p in model.parameters())
    teacher = load_teacher(args.teacher, args.device) if args.teacher is not None else None
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=5e-4)
    budget = args.minutes * 60
    t0 = last_eval = time.time()
    step, seen, history = 0, 0, []
    bar = tqdm(total=int(budget), unit="s", desc=f"train ({n_params / 1e6:.2f}M params)")
    while True:
        elapsed = time.time() - t0
        if elapsed >= budget or (args.steps and step >= args.steps):
            break
        frac = elapsed / budget
        lr = args.lr * min(1.0, (step + 1) / 200) * 0.5 * (1 + math.cos(math.pi * frac))
        for group in opt.param_groups:
            group["lr"] = lr
        idx = torch.randint(0, len(crops.xt), (args.batch,), generator=g, device=args.device)
        xb = augment(as_input(crops.xt[idx]), g, args.wide_rotation)
        xs = photo_blur(xb, g, args.photo_blur) if args.photo_blur > 0 else xb
        with torch.autocast("cuda", dtype=torch.bfloat16, enabled=cuda):
            logits = model(xs).float()
            loss = F.cross_entropy(logits, crops.yt[idx], label_smoothing=0.05)
            if teacher is not None:
                loss = loss + args.distill * distill_loss(logits, teacher, xb)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        step += 1
        seen += args.batch
        bar.n = min(int(time.time() - t0), int(budget))
        if step % 50 == 0 or not cuda:  # reading the loss waits for the GPU
            bar.set_postfix(step=step, loss=f"{loss.item():.3f}", lr=f"{lr:.1e}", refresh=False)
            bar.refresh()
        if time.time() - last_eval > args.eval_every * 60:
            last_eval = time.time()
            r = evaluate(model, crops.xv, crops.yv, crops.sv, crops.xh, crops.yh)
            history.append({"step": step, "minutes": round((time.time() - t0) / 60, 1), **r})
            tqdm.write(json.dumps(history[-1]))
            # a checkpoint at every evaluation: a session can stop at any moment
            save(model, args, size, {"steps": step, "partial": True, "val": r}, history)
    bar.close()
    return step, seen, history


def main(argv: list[str] | None = None) -> int:
    p = _parser()
    args = p.parse_args(argv)
    if args.export_only:
        if args.init is None:
            p.error("--export-only needs --init (the checkpoint to export)")
        model, ckpt = load_checkpoint(args.init)
        export_onnx(model, args.onnx, int(ckpt["size"]))
        print(f"wrote {args.onnx} from {args.init}")
        return 0
    if args.data is None:
        p.error("--data is required to train")

    torch.set_num_threads(args.threads)
    # small Adam moments become denormals late in a run and slow every step several times over
    torch.set_flush_denormal(True)
    torch.manual_seed(args.seed)
    crops = load_crops(args.data, args.extra, args.extra_val, args.device)
    size = crops.xt.shape[1]
    if size != CROP_SIZE:
        print(f"note: {size} px crops; the runtime default is {CROP_SIZE}, the ONNX metadata says {size}")
    model = new_model(args).to(args.device)
    t0 = time.time()
    step, seen, history = fit(model, crops, args, size)
    final = evaluate(model, crops.xv, crops.yv, crops.sv, crops.xh, crops.yh)
    summary = {"init": str(args.init) if args.init else None,
               "steps": step, "crops_seen": seen, "minutes": round((time.time() - t0) / 60, 1),
               "params": sum(q.numel() for q in model.parameters()),
               "val": final, "data": str(args.data), "extra": [str(e) for e in args.extra],
               "size": size, "width": args.width}
    print(json.dumps(summary))
    save(model, args, size, summary, history)
    print(f"wrote {args.out}" + ("" if args.no_export else f" and {args.onnx}"))
    return 0


def save(model: nn.Module, args: argparse.Namespace, size: int, summary: dict, history: list) -> None:
    """The .pt (resumable with --init) and its ONNX export, written side by side."""
    args.out.parent.mkdir(parents=True, exist_ok=True)
    device = next(model.parameters()).device
    model.cpu()
    ckpt = {"state_dict": model.state_dict(), "names": list(CLASSIFIER_NAMES), "size": size,
            "width": args.width, "summary": summary, "history": history}
    if isinstance(model, IndexNet):
        ckpt["factored"] = model.factored  # an IndexNet is rebuilt from its width and head
    else:
        ckpt["model"] = model  # the architecture too: it is not rebuilt from a width alone
    torch.save(ckpt, args.out)
    if not args.no_export:
        export_onnx(model, args.onnx, size)
    model.to(device).train()


if __name__ == "__main__":
    raise SystemExit(main())
