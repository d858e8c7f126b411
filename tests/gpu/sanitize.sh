#!/usr/bin/env bash
# Every GPU kernel of gpubench under compute-sanitizer (make sanitize-gpu), for
# a machine with a CUDA GPU: memcheck (out-of-bounds and misaligned accesses,
# leaks), racecheck (shared-memory hazards), synccheck (illegal barriers) and
# initcheck (reads of uninitialised device memory) on configurations small
# enough for the sanitizer's slowdown, each run verified as usual. Needs bash
# and compute-sanitizer (from the CUDA toolkit), no compiler.
#
#   GPUBENCH=dist/bin/gpubench tests/gpu/sanitize.sh [SUBCOMMAND...]
#
# SUBCOMMAND limits the runs to those of stm, avoid, ... (default: all).
# SANITIZE_TOOLS (default "memcheck racecheck synccheck initcheck") picks the tools;
# COMPUTE_SANITIZER names the binary when it is not on the PATH or in
# $CUDA_HOME/bin or /usr/local/cuda/bin. Last line: "sanitize-gpu: N passed,
# N failed"; exit status 1 when any failed.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
if [ -f "$here/../lib.sh" ]; then
	# shellcheck source=tests/lib.sh
	. "$here/../lib.sh"
else
	# shellcheck source=tests/lib.sh
	. "$here/lib.sh"
fi
t_init
G=${GPUBENCH:-./gpubench}
tools=${SANITIZE_TOOLS:-memcheck racecheck synccheck initcheck}
only=("$@")

cs=${COMPUTE_SANITIZER:-}
if [ -z "$cs" ]; then
	for c in compute-sanitizer "${CUDA_HOME:-/usr/local/cuda}/bin/compute-sanitizer" \
		/usr/local/cuda/bin/compute-sanitizer; do
		if command -v "$c" >/dev/null 2>&1; then
			cs=$(command -v "$c")
			break
		fi
	done
fi
if [ -z "$cs" ] || ! command -v "$cs" >/dev/null 2>&1 || [ ! -x "$G" ]; then
	fail "compute-sanitizer and $G are found" "compute-sanitizer: ${cs:-not found}" "GPUBENCH: $G"
	summary sanitize-gpu
	exit 1
fi
echo "sanitize-gpu: $("$cs" --version | sed -n 's/.*Version /version /p' | head -n 1), tools: $tools"

# sanitize [--rc N] SUBCOMMAND ARGS...: one gpubench run under every tool; the
# sanitizer's own error status (9) and gpubench's (1 runtime, 3 wrong result)
# both fail it, unless --rc names the status gpubench must end with.
sanitize() {
	local want=0 sub tool
	if [ "$1" = --rc ]; then
		want=$2
		shift 2
	fi
	sub=$1
	shift
	if [ ${#only[@]} -gt 0 ] && ! printf '%s\n' "${only[@]}" | grep -qx "$sub"; then
		return
	fi
	for tool in $tools; do
		run "$cs" --tool "$tool" --error-exitcode 9 --print-limit 20 "$G" "$sub" --quiet "$@"
		if [ "$RC" = "$want" ]; then
			pass "$tool: $sub $*"
		else
			fail "$tool: $sub $*" "$(t_context)"
		fi
	done
}

# stm: PR-STM's kernel at low and high contention, with semantic chains,
# read-only transactions and multi-leg transfers.
sanitize stm --backend gpu --threads 256 --accounts 1024 --tx-per-thread 8 --reps 1 --warmup 0 \
	--semantic-ratio 50 --read-only 20 --transfers-per-tx 2
sanitize stm --backend gpu --threads 512 --accounts 64 --hash 8 --initial-balance 100000 \
	--tx-per-thread 4 --reps 1 --warmup 0 --semantic-ratio 100 --presort
# the timed run (rounds over the table, the round gate, backoff at high
# contention), and a batch that cannot finish before --timeout (a million
# transactions serialised on one lock): the kernel stops itself, exit 1.
sanitize stm --backend gpu --threads 512 --accounts 64 --hash 8 --initial-balance 100000 \
	--tx-per-thread 4 --reps 1 --warmup 0 --semantic-ratio 0 --transfers-per-tx 2 --duration 0.2
sanitize stm --backend gpu --threads 256 --accounts 1024 --tx-per-thread 8 --reps 1 --warmup 0 \
	--semantic-ratio 50 --presort --read-only 20 --duration 0.2
sanitize --rc 1 stm --backend gpu --threads 512 --accounts 64 --hash 64 --transfers-per-tx 4 \
	--initial-balance 1000000 --tx-per-thread 2000 --semantic-ratio 0 --reps 1 --warmup 0 --timeout 8
# GPU-STM's kernels, its logs in global memory (gpustm) and thread-local (gpustm-local): high
# contention with value validation (hash 8), and shuffled semantic chains given up at the retry limit.
for algo in gpustm gpustm-local; do
	sanitize stm --backend gpu --algo "$algo" --threads 512 --accounts 64 --hash 8 --initial-balance 100000 \
		--tx-per-thread 4 --reps 1 --warmup 0 --semantic-ratio 0 --read-only 20 --transfers-per-tx 2
	sanitize stm --backend gpu --algo "$algo" --threads 256 --accounts 1024 --tx-per-thread 8 --reps 1 \
		--warmup 0 --semantic-ratio 100
done
# prstm-nocm: the semantic retry in place and its stall, on prstm's bank kernel
sanitize stm --backend gpu --algo prstm-nocm --threads 256 --accounts 1024 --tx-per-thread 8 --reps 1 --warmup 0 \
	--semantic-ratio 100 --stall-timeout 0.05
# vacation's kernels, every engine that runs it but csmv's, with queries and sold-out room types
for algo in prstm gpustm gpustm-local; do
	sanitize stm --backend gpu --algo "$algo" --workload vacation --threads 512 --tx-per-thread 6 \
		--customers 100 --room-types 8 --rooms 4 --read-only 20 --reps 1 --warmup 0
done

# skiplist's kernels, both engines, the 16-word sets and a narrow one, at high contention; prstm's rounds
for algo in prstm gpustm gpustm-local; do
	sanitize stm --backend gpu --algo "$algo" --workload skiplist --threads 512 --tx-per-thread 6 \
		--initial-keys 16 --key-range 32 --capacity 10000 --read-only 20 --reps 1 --warmup 0
	sanitize stm --backend gpu --algo "$algo" --workload skiplist --threads 256 --tx-per-thread 6 \
		--initial-keys 16 --key-range 32 --capacity 10000 --levels 2 --reps 1 --warmup 0
done
sanitize stm --backend gpu --workload skiplist --threads 256 --tx-per-thread 6 --initial-keys 16 \
	--key-range 64 --capacity 10000 --reps 1 --warmup 0 --duration 0.2
# kmeans' and graph's kernels, both engines, stage after stage (retable between)
for algo in prstm gpustm gpustm-local; do
	sanitize stm --backend gpu --algo "$algo" --workload kmeans --threads 512 --points 4000 --clusters 4 \
		--iterations 3 --reps 1 --warmup 0
	sanitize stm --backend gpu --algo "$algo" --workload graph --threads 512 --vertices 500 --edges 3000 \
		--edges-per-tx 7 --reps 1 --warmup 0
	# all of a vertex's neighbours (largest degree 13): the 16-word kernels
	sanitize stm --backend gpu --algo "$algo" --workload graph --threads 512 --vertices 500 --edges 1200 \
		--reps 1 --warmup 0
done
# all neighbours past 16 and 32 words: prstm's kernels of 32 and 64 words, gpustm's of 64
for algo in prstm gpustm gpustm-local; do
	sanitize stm --backend gpu --algo "$algo" --workload graph --threads 512 --vertices 500 --edges 3000 \
		--hash 4 --reps 1 --warmup 0
	sanitize stm --backend gpu --algo "$algo" --workload graph --threads 512 --vertices 500 --edges 8000 \
		--reps 1 --warmup 0
done

# CSMV's cooperative kernel (clients and the server block: the paper's receiver
# and worker warps, and csmv-index's single server warp), each variant, and
# JVSTM-GPU's kernel (every thread committing by itself), with read-only
# transactions over every account; memcached on prstm's kernels, gpustm's, csmv, csmv-index and jvstm-gpu
for algo in csmv csmv-nocv csmv-onlycs csmv-index csmv-index-nocv csmv-index-onlycs jvstm-gpu; do
	sanitize stm --backend gpu --algo "$algo" --threads 256 --block-size 64 --accounts 300 --semantic-ratio 0 \
		--read-only 20 --read-only-size 300 --tx-per-thread 4 --reps 1 --warmup 0
done
for algo in prstm csmv csmv-index jvstm-gpu; do # the paper's layout: prstm's kernel of 16 with the read log
	sanitize stm --backend gpu --algo "$algo" --workload memcached --threads 256 --block-size 64 --items 4096 \
		--ways 8 --tx-per-thread 6 --reps 1 --warmup 0
done
for algo in prstm gpustm gpustm-local; do # the compact layout: the wide kernels
	sanitize stm --backend gpu --algo "$algo" --workload memcached --threads 256 --block-size 64 --items 4096 \
		--ways 8 --tx-per-thread 6 --reps 1 --warmup 0 --key-words 1 --value-words 1
done
# PR-STM's kernels with the read log: inquiries over every account, GETs over 64 ways
sanitize stm --backend gpu --algo prstm --threads 256 --block-size 64 --accounts 300 --semantic-ratio 0 \
	--read-only 20 --read-only-size 300 --tx-per-thread 4 --reps 1 --warmup 0
sanitize stm --backend gpu --algo prstm --workload memcached --threads 256 --block-size 64 --items 4096 \
	--ways 64 --set-permille 100 --tx-per-thread 6 --reps 1 --warmup 0

# avoid: both GPU implementations, one block and several, work[] in shared and
# global memory.
for impl in gpu gpu-thesis; do
	sanitize avoid --impl "$impl" --workload worst-case --procs 65 --res 7 --events 4 --reps 1
	sanitize avoid --impl "$impl" --workload random --procs 300 --res 1100 --events 20 --reps 1 --seed 3
	sanitize avoid --impl "$impl" --workload unsafe-mix --procs 40 --res 20000 --events 10 --reps 1 --seed 4
done
# gpu's batches of predicted iterations (every iteration of the worst case but
# the chain's first and last), with the sums in registers (at most 1024
# resources) and with the rows loaded again to be added (more).
sanitize avoid --impl gpu --workload worst-case --procs 512 --res 256 --events 3 --reps 1
sanitize avoid --impl gpu --workload worst-case --procs 200 --res 1500 --events 3 --reps 1
# gpu's chain kernel with the processes' words and the finisher list in global
# memory; then an iteration with more candidates than slots, in two passes.
sanitize avoid --impl gpu --workload unsafe-mix --procs 20000 --res 2 --events 10 --reps 1 --seed 5
sanitize avoid --impl gpu --workload unsafe-mix --procs 30000 --res 2 --events 10 --reps 1 --seed 6
pba_fan_trace "$T_TMP/fan.trace" 30000
sanitize avoid --impl gpu --trace "$T_TMP/fan.trace" --reps 1

# detect: every GPU detector (thesis launches, graphs, one int a cell, stream) on
# small odd systems, rows padded to whole words.
sanitize detect --algo osdda --impl gpu --compare gpu-graph,gpu-initial --procs 67 --res 45 \
	--events 300 --reps 1
sanitize detect --algo lmdda --impl gpu --compare gpu-graph,gpu-initial --procs 40 --res 37 \
	--units 1-3 --events 300 --reps 1
# gpu-stream and gpu-event: state in shared memory, chunks of staged events beyond one
# (RS_CHUNK 2048), and past the shared-memory limit the state in global memory; 16-bit
# entries, and 32-bit ones past 65534 processes.
sanitize detect --algo osdda --impl gpu-stream --compare gpu-event --procs 67 --res 45 \
	--events 5000 --reps 1 --deadlock-share 0.2
sanitize detect --algo lmdda --impl gpu-stream --compare gpu-event --procs 40 --res 37 \
	--units 1-3 --events 5000 --reps 1 --deadlock-share 0.2
sanitize detect --algo osdda --impl gpu-stream --procs 30000 --res 30000 --events 3000 --reps 1
sanitize detect --algo osdda --impl gpu-stream --procs 70000 --res 500 --events 3000 --reps 1
sanitize detect --algo lmdda --impl gpu-stream --compare gpu-event --procs 70000 --res 64 --units 1-3 \
	--events 3000 --reps 1 --deadlock-share 0.2

# speculate: every kernel of the runtime: memory loops that misspeculate
# (detection and localization; commit and recovery on the device: replay
# plans in one block, and levels wide enough for a launch each in ocean's
# 40000-iteration no-sched assignment), the host commit and recovery of
# no-mo, a control-flow loop with a range clause on host-decided
# assignments (no-sched) and in device-decided rounds (the rounds kernel's
# shared state and barriers: gothic; strcat's rounds outgrow a block and
# run as wide rounds, the last block resolving each), and the
# non-speculative loop.
sanitize speculate --backend gpu --loop figure3 --iters 3000 --density 1 --reps 1
sanitize speculate --backend gpu --loop figure3 --iters 3000 --density 1 --reps 1 --opt no-mo
sanitize speculate --backend gpu --loop ocean --iters 4000 --reps 1 --opt no-sched
sanitize speculate --backend gpu --loop ocean --iters 40000 --reps 1 --opt no-sched
sanitize speculate --backend gpu --loop gothic --iters 3000 --density 0.01 --reps 1 --opt no-sched
sanitize speculate --backend gpu --loop gothic --iters 3000 --density 0.01 --reps 1
sanitize speculate --backend gpu --loop gothic --iters 3000 --density 0.01 --reps 1 --schedule lookahead
sanitize speculate --backend gpu --loop strcat --iters 20000 --density 0.001 --reps 1
sanitize speculate --backend gpu --loop fftbench --iters 2000 --reps 1 --compare gpu-nospec

# list: both CUDA lists on every workload, and a heap too small for the run
# (allocation failures handled in the kernel).
for impl in gpu gpu-tail; do
	for op in insert delete mixed; do
		sanitize list --impl "$impl" --op "$op" --nodes 300 --threads 256 --reps 1
	done
	sanitize list --impl "$impl" --op insert --nodes 2000 --superblocks 4 --reps 1
done

summary sanitize-gpu
