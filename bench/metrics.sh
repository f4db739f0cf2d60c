# What counting requests for /metrics costs (sourced by bench/run; uses its helpers and
# variables): GET /healthz on the bench latchkey (metrics on, the default) and on a second
# one started with LATCHKEY_METRICS_ENABLED=false, taking turns at every load.

nometrics_pid=""
nometrics_port=""
target_metrics_ratio=0.97

bench_metrics_cost() {
    nometrics_port="$(free_port)"
    mkdir -p "$work/nometrics-data"
    LATCHKEY_METRICS_ENABLED=false "$binary" serve --host 127.0.0.1 --port "$nometrics_port" --data-dir "$work/nometrics-data" \
        >"$work/nometrics.log" 2>&1 &
    nometrics_pid=$!
    wait_until_healthy "$nometrics_pid" "$nometrics_port" "latchkey (metrics off)" "$work/nometrics.log"
    bench_endpoint "GET /healthz (metrics on / off)" /healthz "latchkey latchkey_nometrics"
    stop_process "$nometrics_pid" "latchkey (metrics off)"
    nometrics_pid=""
}

metrics_target() {
    awk -F'\t' -v target="$target_metrics_ratio" '
        $1 == "GET /healthz (metrics on / off)" && $3 == 64 { rps[$2] = $4 }
        END {
            if (rps["latchkey_nometrics"] <= 0) { print "target recording requests for /metrics: not measured"; exit }
            ratio = rps["latchkey"] / rps["latchkey_nometrics"]
            printf "target GET /healthz at 64 connections with metrics on, to the same with them off: %.2f (at least %.2f, i.e. no measurable cost): %s\n", ratio, target, (ratio >= target ? "met" : "NOT met")
        }
    ' "$results"
}
