#!/bin/bash
# detect's floor (docs/detect.md, "The floor against one core"): the fixed cost of a gpu-stream
# stream, and gpu-stream against cpu-stream and cpu-bits per event. Run from the repository root with
# dist/ built and OUT set; floor.txt and gpu.txt come back.
G=dist/bin/gpubench; O=$OUT
nvidia-smi -L > $O/gpu.txt; lscpu | grep -E "Model name|MHz" >> $O/gpu.txt
which ncu nsys compute-sanitizer >> $O/gpu.txt 2>&1
run() { echo "### $*" >> $O/floor.txt; timeout 120 $G detect "$@" --reps 5 2>&1 | grep -E "stream|cpu-|gpu|decisions" >> $O/floor.txt; }
for E in 1 2000 20000 200000; do
  run --algo osdda --procs 8192 --res 8192 --events $E --impl gpu-stream --compare cpu-stream,cpu-bits
done
for E in 20480 200000; do
  run --algo lmdda --procs 1024 --res 1024 --units 1-4 --events $E --seed 1 --impl gpu-stream --compare cpu-stream,cpu-bits
done
run --algo lmdda --procs 4096 --res 4096 --units 1-4 --events 20000 --seed 1 --impl gpu-stream --compare cpu-stream,cpu-bits
run --algo lmdda --procs 8192 --res 8192 --units 1-4 --events 20000 --seed 1 --impl gpu-stream --compare cpu-stream,cpu-bits
run --algo lmdda --procs 6000 --res 6000 --units 1-4 --events 20000 --seed 1 --impl gpu-stream --compare cpu-stream,cpu-bits
