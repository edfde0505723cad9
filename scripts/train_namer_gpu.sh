#!/usr/bin/env bash
# Build a namer's training crops from the generator's TRAIN split and the real finetune half only
# (no held-out design or font is rendered), then train one `IndexNet` namer on a lent GPU:
#
#     scripts/train_namer_gpu.sh OUT SECONDS [vision.train_classifier options for the net]
#     scripts/train_namer_gpu.sh /tmp/out 540 --factored --width 40 --lr 3e-3 --batch 1024
#
# Needs the fetched designs (`python -m datasets.faces`), the real export
# (`python -m datasets.real --export cache/crops/real_ft --split finetune`), torch with CUDA and the
# runtime packages; Ultralytics is not needed (`vision.index_nets.IndexNet` is plain torch).
# Everything is sized for one wall-clock budget of SECONDS: the data build gets a fixed share, the
# training the rest (`--minutes`), and the checkpoint (OUT/namer.pt) is written at every evaluation,
# so a run cut short still leaves its latest weights; export it with
# `python -m vision.train_classifier --init OUT/namer.pt --export-only --onnx X.fp32.onnx`.
# The sizes suit 16 cores and one H200 (build ~20 s, crops ~65 s, mining 600 photos ~90 s); a smaller
# machine scales them with the variables in capitals; on the 2-core CPU (DEVICE=cpu THREADS=2 TILES=3000
# CROPS=60000 PARTS=2 SCENES=400 MINED=700 GEN_LIMIT=900) the data take ~6 minutes and a warm start
# (`--init models/index_classifier.pt --lr 6e-4`) sees ~0.5 M crops in 15 minutes. One net at a time:
# training processes sharing one GPU take turns on it (four 0.3 M-parameter nets at batch 512 ran ~16
# steps/s each).
# Width 40 reads a 56 px crop in ~1.5x the time of the shipped namers on a 2-core CPU; width 32 in
# about the same time.
set -uo pipefail
out=${1:?usage: train_namer_gpu.sh OUT SECONDS [training options]}
budget=${2:?usage: train_namer_gpu.sh OUT SECONDS [training options]}
shift 2
py=${PYTHON:-python3}
tiles=${TILES:-4000}
crops=${CROPS:-50000}
parts=${PARTS:-6}
scenes=${SCENES:-800}
mined=${MINED:-600}
device=${DEVICE:-cuda}
threads=${THREADS:-4}
gen_limit=${GEN_LIMIT:-200}
d=cache/gpu
t0=$(date +%s)
left() { echo $((budget - ($(date +%s) - t0))); }
mkdir -p "$d" "$out"
export PYTHONUNBUFFERED=1

echo "== build ($(left) s left)"
timeout "$gen_limit" "$py" -m datasets.build --out "$d/v" --train "$tiles" --val 100 --seed 31 --imgsz 640 \
    --workers "$(nproc)" --no-fetch >"$d/build.log" 2>&1 || echo "build: exit $?"
tail -n 1 "$d/build.log"

echo "== crops, negatives, proposals ($(left) s left)"
for i in $(seq 1 "$parts"); do
  val=50
  [ "$i" = 1 ] && val=3000
  timeout "$gen_limit" "$py" -m datasets.crops --out "$d/c$i" --train "$crops" --val "$val" --seed $((40 + i)) \
      --synth "$d/v" --real cache/crops/real_ft --stretch 0.5 --dark 0.15 --size 56 >"$d/c$i.log" 2>&1 &
done
timeout "$gen_limit" "$py" -m datasets.negatives --out "$d/neg.npz" --scenes "$scenes" --seed 21 \
    --real cache/crops/real_ft --workers 4 >"$d/neg.log" 2>&1 &
timeout "$gen_limit" "$py" -m datasets.proposals --yolo cache/crops/real_ft --yolo "$d/v/train" \
    --max-images "$mined" --max-bg 25 --seed 3 --size 56 --out "$d/hard.npz" >"$d/prop.log" 2>&1 &
wait
for f in "$d"/c*.log "$d/neg.log" "$d/prop.log"; do echo "$f: $(tail -c 300 "$f" | tr '\r' '\n' | tail -n 1)"; done

extras=()
for f in "$d"/c*/train.npz "$d/neg.npz" "$d/hard.npz" "$d/hard_real.npz" "$d/hard_real.npz"; do
  [ -f "$f" ] && [ "$f" != "$d/c1/train.npz" ] && extras+=(--extra "$f")
done
xval=()
[ -f "$d/hard-val.npz" ] && xval=(--extra-val "$d/hard-val.npz")
minutes=$("$py" -c "print(max(0.5, ($(left) - 50) / 60))")
echo "== train ${minutes} min ($(left) s left)"

"$py" -m vision.train_classifier --data "$d/c1" "${extras[@]}" "${xval[@]}" --device "$device" \
    --minutes "$minutes" --eval-every 1 --threads "$threads" --wide-rotation 0.2 --out "$out/namer.pt" --no-export \
    "$@" >"$d/namer.log" 2>&1
grep '"val"' "$d/namer.log" | tail -n 1 | cut -c1-400
tar cf "$out/logs.tar" "$d"/*.log "$d"/c1/info.json 2>/dev/null
echo "== done ($(left) s left)"
