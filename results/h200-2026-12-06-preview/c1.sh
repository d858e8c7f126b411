# c1.sh FOLDER: check-gpu's STM parts, memcheck, PR-STM's default command, then the preview
set -u; S=$(date +%s); O=results/local/$1; mkdir -p $O/x
pack(){ tar czf $OUT/r.tgz $O 2>/dev/null; }
nvidia-smi > $O/x/smi.txt 2>&1; dist/bin/gpubench info > $O/x/info.txt 2>&1
(cd dist && CHECK_GPU_PARTS=stm,stm-mv GPUBENCH=bin/gpubench timeout 420 tests/gpu/check.sh) > $O/x/check-stm.txt 2>&1
echo "check-stm rc=$? $(( $(date +%s)-S ))s" >> $O/x/log.txt; pack
for a in prstm gpustm; do timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 dist/bin/gpubench stm \
  --algo $a --threads 960 --tx-per-thread 100 --reps 1 --warmup 0 > $O/x/memcheck-$a.txt 2>&1; echo "memcheck $a rc=$?" >> $O/x/log.txt; done
dist/bin/gpubench stm --algo prstm --threads 6720 --json $O/x/prstm-6720.json > $O/x/prstm-6720.txt 2>&1; pack
B=$(( ${2:-570} - ($(date +%s)-S) )); timeout $((B+20)) dist/scripts/reproduce-all.sh --preview --series paper \
  --gpubench dist/bin/gpubench --out $O/preview --max-seconds $B > $O/x/preview-1.txt 2>&1
echo "preview rc=$? $(( $(date +%s)-S ))s" >> $O/x/log.txt; pack; cat $O/x/log.txt
