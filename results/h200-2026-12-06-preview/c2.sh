# c2.sh FOLDER: the preview's rest, then the two reason sweeps
set -u; S=$(date +%s); O=results/local/$1; pack(){ tar czf $OUT/r.tgz $O 2>/dev/null; }
timeout 320 dist/scripts/reproduce-all.sh --preview --series paper --gpubench dist/bin/gpubench --out $O/preview \
  --max-seconds 300 > $O/x/preview-2.txt 2>&1; echo "preview rc=$?" >> $O/x/log.txt; pack
q=(--gpubench dist/bin/gpubench --backend gpu --preview --algos prstm,gpustm)
timeout 150 bash dist/scripts/fig8.sh "${q[@]}" --panels B,D --read-only-mix blocks --out $O/why-fig8-blocks > $O/x/why-fig8.txt 2>&1
echo "why-fig8 rc=$?" >> $O/x/log.txt; pack
timeout 100 bash dist/scripts/fig12a.sh "${q[@]}" --out $O/why-fig12a-c1024 -- --clusters 1024 > $O/x/why-fig12a.txt 2>&1
echo "why-fig12a rc=$? $(( $(date +%s)-S ))s" >> $O/x/log.txt; pack; cat $O/x/log.txt
