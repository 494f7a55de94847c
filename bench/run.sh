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
#   the proxy lane (bench/fleetbench/proxy.go): a 1.0 send to one agent
#     direct, through net/http/httputil.ReverseProxy and through
#     a2a-conform proxy's vendor in front of it: proxy_lane_{agent,
#     revproxy,proxy}_{rps,p50_ms,p99_ms,server_cpu_us}, what each proxy
#     adds (proxy_lane_*_added_{p50_ms,p99_ms,cpu_us}), the ratio of the
#     fleet's added CPU to the reverse proxy's (proxy_lane_added_cpu_ratio)
#     and proxy_lane_throughput_ratio (fleet proxy / reverse proxy).
#   gRPC (the grpc lane of bench/fleetbench, see its grpc.go): unary
#     SendMessage through the fleet's gRPC binding against a bare grpc-go
#     server on its own transport and the same handler behind net/http's
#     HTTP/2 server through ServeHTTP (as the fleet served it before it
#     took h2 connections to grpc-go's own transport):
#     grpc_server_cpu_us_{fleet,bare,bare_servehttp}, grpc_rps_*,
#     grpc_server_cpu_ratio and grpc_throughput_ratio (fleet / bare),
#     grpc_servehttp_cpu_ratio (bare_servehttp / bare: the transport's
#     share of the gap), grpc_fleet_servehttp_cpu_ratio (the fleet
#     against that transport) and grpc_fastpath_cpu_gain (against the
#     fleet with PlainJSON: every call through protojson).
#   suite wall time: suite_wall_s (builtin:reference) and suite_exec_wall_s
#     (the reference orchestrator as an exec: driver program).
#   scenarios at once: the built CLI against the reference as exec: and
#     as an http service (-http, 8 sessions) at --parallel 1 and 4:
#     suite_{exec,http}_wall_s_p1 and _p4, and their speedup _p4_speedup
#     (p1 over p4, the same run's ratio).
#
# The load client and the servers still share the machine's cores: compare
# the ratios, not the absolute numbers. Knobs: BENCH_ROUNDS (5),
# BENCH_DURATION (3s), BENCH_CONNS (16; gRPC: ClientConns), BENCH_INFLIGHT
# (4 gRPC calls at once on each ClientConn), BENCH_DIALECTS (03,10,grpc),
# BENCH_STARTUPS (20), GO (go).
set -uo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# 1. Fleet against a bare net/http TLS server (JSON-RPC) and bare grpc-go
#    servers (gRPC), interleaved rounds.
"$GO" build -o "$tmp/fleetbench" ./bench/fleetbench || { echo "fleetbench=build-failed"; exit 2; }
"$tmp/fleetbench" -rounds "${BENCH_ROUNDS:-5}" -duration "${BENCH_DURATION:-3s}" \
	-conns "${BENCH_CONNS:-16}" -inflight "${BENCH_INFLIGHT:-4}" -dialects "${BENCH_DIALECTS:-03,10,grpc,proxy}" \
	-startups "${BENCH_STARTUPS:-20}" 2>"$tmp/rounds.txt"
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
# 4. Scenarios at once: --parallel 1 against 4, exec: and http, with the
#    built CLI (no compilation in the figure).
if "$GO" build -o "$tmp/a2a-conform" ./cmd/a2a-conform && [ -x "$tmp/reference" ]; then
	"$tmp/reference" -http 127.0.0.1:0 -sessions 8 2>"$tmp/svc.txt" &
	svc=$!
	for _ in $(seq 50); do grep -q ' on http://' "$tmp/svc.txt" && break; sleep 0.1; done
	url=$(sed -n 's/.* on \(http:[^ ]*\)$/\1/p' "$tmp/svc.txt" | head -1)
	for kind in exec http; do
		orch="exec:$tmp/reference"
		[ "$kind" = http ] && orch=$url
		p1=$(wall "$tmp/a2a-conform" run --orchestrator "$orch" --parallel 1)
		p4=$(wall "$tmp/a2a-conform" run --orchestrator "$orch" --parallel 4)
		echo "suite_${kind}_wall_s_p1=$p1"
		echo "suite_${kind}_wall_s_p4=$p4"
		echo "suite_${kind}_p4_speedup=$(awk -v a="$p1" -v b="$p4" 'BEGIN { if (b > 0) printf "%.2f\n", a / b; else print "failed" }')"
	done
	kill "$svc" 2>/dev/null
	wait "$svc" 2>/dev/null
else
	echo "suite_parallel=unavailable"
fi
exit $rc
