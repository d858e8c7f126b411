# c3.sh: the third call, on the same machine: the preview's rest for 220 s
O=results/local/h-163d400; timeout 270 dist/scripts/reproduce-all.sh --preview --series paper --gpubench dist/bin/gpubench --out $O/preview --max-seconds 220 > $O/x/preview-3.txt 2>&1; echo "preview3 rc=$?" >> $O/x/log.txt; tar czf $OUT/r.tgz $O; tail -3 $O/x/preview-3.txt
