#!/usr/bin/env bash
# bench/run.sh: the fleet's performance figures, as name=value lines.
#
#   fleet vs bare (bench/fleetbench, see its doc comment): per dialect (03,
#     10) the server process's CPU per request side by side
#     (D_server_cpu_us_fleet, _bare, _fleet_plain with the JSON fast path
#     off, _fleet_live with a live trace subscriber), D_server_cpu_ratio,
#     D_throughput_ratio, D_fastpath_cpu_gain, D_live_trace_cpu_cost, each
#     target's rps, p50/p99 latency and load-client CPU, fleet_startup_ms.
#     The load client runs in a process of its own, so its CPU is not
#     counted as the servers'.
#   suite wall time: suite_wall_s (builtin:reference) and suite_exec_wall_s
#     (the reference orchestrator as an exec: driver program).
#
# The load client and the servers still share the machine's cores: compare
# the ratios, not the absolute numbers. Knobs: BENCH_ROUNDS (5),
# BENCH_DURATION (3s), BENCH_CONNS (16), BENCH_STARTUPS (20), GO (go).
set -uo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# 1. Fleet against a bare net/http TLS server, interleaved rounds.
"$GO" build -o "$tmp/fleetbench" ./bench/fleetbench || { echo "fleetbench=build-failed"; exit 2; }
"$tmp/fleetbench" -rounds "${BENCH_ROUNDS:-5}" -duration "${BENCH_DURATION:-3s}" \
	-conns "${BENCH_CONNS:-16}" -startups "${BENCH_STARTUPS:-20}" 2>"$tmp/rounds.txt"
rc=$?
sed 's/^/# /' "$tmp/rounds.txt" >&2
[ $rc -eq 0 ] || echo "fleetbench=failed"

# wall runs CMD... and prints the elapsed seconds; the command's exit status
# (0 conformant, 1 a failed check) does not matter here, 2 (harness error)
# does.
wall() {
	local start end st
	start=$(date +%s.%N)
	"$@" >"$tmp/out.txt" 2>&1
	st=$?
	end=$(date +%s.%N)
	if [ $st -ge 2 ]; then
		sed 's/^/# /' "$tmp/out.txt" | tail -20 >&2
		echo "failed"
		return
	fi
	awk -v s="$start" -v e="$end" 'BEGIN { printf "%.2f\n", e - s }'
}

# 2. The whole suite against the built-in reference orchestrator (timed as
#    `go run`, compilation included, as a user would run it).
echo "suite_wall_s=$(wall "$GO" run ./cmd/a2a-conform run --orchestrator builtin:reference)"

# 3. The same through the exec: driver contract, with the reference
#    orchestrator built as its own program.
if "$GO" build -o "$tmp/reference" ./examples/orchestrators/cmd/reference 2>"$tmp/build.txt"; then
	echo "suite_exec_wall_s=$(wall "$GO" run ./cmd/a2a-conform run --orchestrator "exec:$tmp/reference")"
else
	sed 's/^/# /' "$tmp/build.txt" | head -5 >&2
	echo "suite_exec_wall_s=unavailable"
	echo "# ./examples/orchestrators/cmd/reference does not build yet" >&2
fi
exit $rc
