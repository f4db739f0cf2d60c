# What observability costs (sourced by bench/run; uses its helpers and variables):
# GET /healthz and GET /v1/users/me on two latchkeys over one data directory and one key,
# "observed" with /metrics recording and the access log on (JSON lines to a file, as a
# container ships them) and "quiet" with both off, taking turns at every load. At 64
# connections, the target's load, they take two turns each (quiet, observed, observed,
# quiet) and the ratio is of the sums: the target's margin is 5%, and one pair of turns on
# a shared 2-core machine drifts by more than that.

observed_pid=""
observed_port=""
quiet_pid=""
quiet_port=""
target_observability_ratio=0.95

start_observability_pair() {
    local shared="$work/observability-data" key
    mkdir -p "$shared"
    key="bench:$(head -c 48 /dev/urandom | base64 -w0)"
    observed_port="$(free_port)"
    quiet_port="$(free_port)"
    LATCHKEY_SIGNING_KEYS="$key" LATCHKEY_ISSUER=https://bench.latchkey.test LATCHKEY_LOG_FORMAT=json \
        LATCHKEY_METRICS_ENABLED=true LATCHKEY_ACCESS_LOG=true \
        "$binary" serve --host 127.0.0.1 --port "$observed_port" --data-dir "$shared" >"$work/observed.log" 2>&1 &
    observed_pid=$!
    wait_until_healthy "$observed_pid" "$observed_port" "latchkey (observed)" "$work/observed.log"
    LATCHKEY_SIGNING_KEYS="$key" LATCHKEY_ISSUER=https://bench.latchkey.test LATCHKEY_LOG_FORMAT=json \
        LATCHKEY_METRICS_ENABLED=false LATCHKEY_ACCESS_LOG=false \
        "$binary" serve --host 127.0.0.1 --port "$quiet_port" --data-dir "$shared" >"$work/quiet.log" 2>&1 &
    quiet_pid=$!
    wait_until_healthy "$quiet_pid" "$quiet_port" "latchkey (quiet)" "$work/quiet.log"
}

bench_observability_cost() {
    local token
    start_observability_pair
    token="$(python3 - "$observed_port" <<'EOF_PY'
import json, sys, urllib.request
body = json.dumps({"email": "observed@example.com", "password": "observability-bench-9", "displayName": "observed"}).encode()
request = urllib.request.Request(f"http://127.0.0.1:{sys.argv[1]}/v1/auth/signup", data=body, method="POST",
                                 headers={"Content-Type": "application/json"})
with urllib.request.urlopen(request, timeout=30) as response:
    print(json.load(response)["accessToken"])
EOF_PY
)"
    bench_endpoint "GET /healthz (observed / quiet)" /healthz "latchkey_observed latchkey_quiet"
    run_wrk "GET /healthz (observed / quiet)" latchkey_observed 2 64 /healthz
    run_wrk "GET /healthz (observed / quiet)" latchkey_quiet 2 64 /healthz
    bench_endpoint "GET /v1/users/me (observed / quiet)" /v1/users/me "latchkey_observed latchkey_quiet" -H "Authorization: Bearer $token"
    run_wrk "GET /v1/users/me (observed / quiet)" latchkey_observed 2 64 /v1/users/me -H "Authorization: Bearer $token"
    run_wrk "GET /v1/users/me (observed / quiet)" latchkey_quiet 2 64 /v1/users/me -H "Authorization: Bearer $token"
    say "access log written by the observed latchkey: $(grep -c '"logger":"access"' "$work/observed.log") lines"
    stop_process "$observed_pid" "latchkey (observed)"
    stop_process "$quiet_pid" "latchkey (quiet)"
    observed_pid=""
    quiet_pid=""
}

observability_target() {
    awk -F'\t' -v target="$target_observability_ratio" '
        $3 == 64 && ($1 == "GET /healthz (observed / quiet)" || $1 == "GET /v1/users/me (observed / quiet)") { rps[$1, $2] += $4; seen[$1] = 1 }
        END {
            n = split("GET /healthz (observed / quiet)|GET /v1/users/me (observed / quiet)", labels, "|")
            for (i = 1; i <= n; i++) {
                label = labels[i]
                if (!(label in seen) || rps[label, "latchkey_quiet"] <= 0) { printf "target %s: not measured\n", label; continue }
                ratio = rps[label, "latchkey_observed"] / rps[label, "latchkey_quiet"]
                sub(/ \(observed \/ quiet\)/, "", label)
                printf "target %s at 64 connections with metrics and the access log on, to the same with both off: %.2f (at least %.2f): %s\n", label, ratio, target, (ratio >= target ? "met" : "NOT met")
            }
        }
    ' "$results"
}
