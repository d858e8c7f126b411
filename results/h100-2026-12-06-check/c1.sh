# c1.sh REV: whole check-gpu on the clean build, then GPU-STM's verify split
set -u; S=$(date +%s); X=results/local/x-$1; O=results/local/ref-$1; mkdir -p $X $O
pack(){ tar czf $OUT/r.tgz $X $O 2>/dev/null; }
nvidia-smi > $X/smi.txt 2>&1; dist/bin/gpubench info > $X/info.txt 2>&1
(cd dist && GPUBENCH=bin/gpubench timeout 500 tests/gpu/check.sh) > $X/check-all.txt 2>&1
echo "check-all rc=$? $(( $(date +%s)-S ))s" >> $X/log.txt; pack
for v in verify no-verify; do f=(); [[ $v == verify ]] || f=(--no-verify); timeout 40 dist/bin/gpubench stm --algo gpustm \
  --threads 9600 --duration 1 --reps 2 "${f[@]}" --json $X/gpustm-9600-$v.json > $X/gpustm-9600-$v.txt 2>&1; done
echo "split $(( $(date +%s)-S ))s" >> $X/log.txt; pack; cat $X/log.txt; tail -5 $X/check-all.txt
