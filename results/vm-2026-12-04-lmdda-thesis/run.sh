#!/usr/bin/env bash
# LMDDA under --protocol thesis on the CPU detectors, at the thesis's sizes,
# from clean builds: NEW at 580d421 (the built RAG reached by requests alone),
# OLD at a2228e2 (the generated build replayed, releases and all).
# usage: run.sh NEW OLD
set -u
NEW=$1 OLD=$2
for n in 64 128 256 512; do
	/usr/bin/time -f "wall %e s" "$NEW" detect --algo lmdda --procs $n --res $n --units 1-4 \
		--impl cpu-serial --compare cpu,cpu-bits,cpu-stream --reps 3 --json lmdda-$n.json > lmdda-$n.txt 2>&1
done
/usr/bin/time -f "wall %e s" "$NEW" detect --algo lmdda --procs 1024 --res 1024 --units 1-4 \
	--impl cpu-serial --compare cpu-bits,cpu-stream --reps 3 --json lmdda-1024.json > lmdda-1024.txt 2>&1
# before: the same 256 x 256 run of cpu-serial alone with the build replayed, cut at 600 s
/usr/bin/time -f "wall %e s" "$OLD" detect --algo lmdda --procs 256 --res 256 --units 1-4 \
	--impl cpu-serial --reps 1 --timeout 600 --json old-lmdda-256-cpu-serial.json > old-lmdda-256-cpu-serial.txt 2>&1
# and cpu (byte matrices) alone, the same way (run while a test suite loaded the other core)
/usr/bin/time -f "wall %e s" "$OLD" detect --algo lmdda --procs 256 --res 256 --units 1-4 \
	--impl cpu --reps 1 --timeout 1500 --json old-lmdda-256-cpu.json > old-lmdda-256-cpu.txt 2>&1
