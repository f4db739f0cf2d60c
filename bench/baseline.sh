# This build against an earlier one (sourced by bench/run; uses its helpers and variables):
# BENCH_BASELINE names a git revision (built release into its own scratch path) or a
# latchkey binary. Both run side by side on fresh data directories, and take turns (this,
# earlier, earlier, this; then earlier, this, this, earlier, so neither side always goes
# first) at 64 connections on GET /healthz, GET /v1/users/me and POST
# /v1/auth/refresh (fresh sessions a turn, each following its token chain); each ratio
# is of the requests/s summed over the turns. Both do the same work per request: metrics
# and the access log on (the default now; an earlier build had the log off by default),
# logs to a file. Without BENCH_BASELINE the part is skipped.
# Also here: what strangers can make /metrics hold (bench/metrics_labels.py).

baseline_summary=()
baseline_pid=""
baseline_port=""
current_pid=""
current_port=""
target_labels_growth_mb=2
target_labels_scrape_bytes=65536

# The earlier binary: BENCH_BASELINE itself when it is an executable, else that revision
# of this repository built into bench/.baseline/REV (kept, so a second run reuses it).
baseline_binary() {
    if [[ -x "$BENCH_BASELINE" ]]; then
        echo "$BENCH_BASELINE"
        return
    fi
    local rev source scratch
    rev="$(cd "$root" && git rev-parse --short "$BENCH_BASELINE")" || fail "BENCH_BASELINE=$BENCH_BASELINE is neither a binary nor a revision"
    source="$root/bench/.baseline/$rev"
    scratch="$root/bench/.baseline/$rev-build"
    if [[ ! -d "$source" ]]; then
        mkdir -p "$root/bench/.baseline"
        (cd "$root" && git archive --format=tar "$rev" | (mkdir -p "$source" && tar -x -C "$source")) || fail "could not export $rev"
    fi
    say "building the baseline $rev (release, static Swift runtime) in $scratch"
    (cd "$source" && swift build -c release --static-swift-stdlib --product latchkey --scratch-path "$scratch") >&2
    echo "$(cd "$source" && swift build -c release --static-swift-stdlib --show-bin-path --scratch-path "$scratch")/latchkey"
}

start_side() {  # binary data-dir log -> sets side_pid side_port
    side_port="$(free_port)"
    mkdir -p "$2"
    LATCHKEY_MAX_CONNECTIONS="$max_connections" LATCHKEY_MAX_CONNECTIONS_PER_ADDRESS="$max_connections" \
    LATCHKEY_RATE_LIMITS_ENABLED=false LATCHKEY_ACCESS_LOG=true LATCHKEY_METRICS_ENABLED=true \
        "$1" serve --host 127.0.0.1 --port "$side_port" --data-dir "$2" >"$3" 2>&1 &
    side_pid=$!
    wait_until_healthy "$side_pid" "$side_port" "latchkey ($2)" "$3"
}

side_post() {  # port path json
    pg_post_json "$@"
}

baseline_refresh_turn() {  # side label port
    local tokens=() script
    mapfile -t tokens < <(pg_login_sessions "$(refresh_sessions 2 64)" "$3")
    ((${#tokens[@]} == $(refresh_sessions 2 64))) || fail "only ${#tokens[@]} sessions for the refresh turn"
    script="$(refresh_script 2 "${tokens[@]}")"
    mv "$script" "$work/refresh-baseline-$1.lua"
    run_wrk "$2" "$1" 2 64 /v1/auth/refresh -s "$work/refresh-baseline-$1.lua"
}

# this/earlier for LABEL, summed over its rows; then both sums.
baseline_ratio_line() {  # label
    local line
    line="$(awk -F'\t' -v label="$1" '
        $1 == label && $2 == "latchkey_current" { c += $4; turns = turns sprintf(" this %.0f", $4) }
        $1 == label && $2 == "latchkey_baseline" { b += $4; turns = turns sprintf(" earlier %.0f", $4) }
        END { if (c > 0 && b > 0) printf "%.0f %.0f %.3f%s", c, b, c / b, turns }
    ' "$results")"
    if [[ -z "$line" ]]; then
        baseline_summary+=("target $1 at 64 connections against $BENCH_BASELINE: not measured")
        return
    fi
    read -r c b ratio turns <<<"$line"
    baseline_summary+=("target $1 at 64 connections, this build to $BENCH_BASELINE (summed over this, earlier, earlier, this, earlier, this, this, earlier): ${c} to ${b} req/s, ratio ${ratio} (no lower than before: $(awk -v r="$ratio" 'BEGIN { print (r >= 1) ? "met" : "NOT met" }'))")
    baseline_summary+=("  the turns in order, req/s:${turns}")
}

# One round's sides in turn: the first round starts with this build, the second with the
# earlier one, so neither always has the first turn (a cold machine) or the last.
baseline_round() {  # round
    if (($1 % 2)); then echo current baseline baseline current; else echo baseline current current baseline; fi
}

bench_against_baseline() {
    if [[ -z "${BENCH_BASELINE:-}" ]]; then
        baseline_summary+=("this build against an earlier one: not measured (set BENCH_BASELINE to a revision or a binary)")
        return
    fi
    local earlier signup_body token_current token_baseline label
    earlier="$(baseline_binary)"
    [[ -x "$earlier" ]] || fail "no baseline binary at $earlier"
    start_side "$binary" "$work/current-data" "$work/current.log"
    current_pid="$side_pid"; current_port="$side_port"
    start_side "$earlier" "$work/baseline-data" "$work/baseline.log"
    baseline_pid="$side_pid"; baseline_port="$side_port"
    signup_body="$(printf '{"email":"%s","password":"%s","displayName":"bench_user"}' "$bench_email" "$bench_password")"
    token_current="$(side_post "$current_port" /v1/auth/signup "$signup_body" | json_field accessToken)"
    token_baseline="$(side_post "$baseline_port" /v1/auth/signup "$signup_body" | json_field accessToken)"
    local side round token port
    for round in 1 2; do
        for side in $(baseline_round "$round"); do
            run_wrk "GET /healthz (this vs earlier)" "latchkey_$side" 2 64 /healthz
        done
    done
    for round in 1 2; do
        for side in $(baseline_round "$round"); do
            if [[ $side == current ]]; then token="$token_current"; else token="$token_baseline"; fi
            run_wrk "GET /v1/users/me (this vs earlier)" "latchkey_$side" 2 64 /v1/users/me -H "Authorization: Bearer $token"
        done
    done
    for round in 1 2; do
        for side in $(baseline_round "$round"); do
            if [[ $side == current ]]; then port="$current_port"; else port="$baseline_port"; fi
            baseline_refresh_turn "latchkey_$side" "POST /v1/auth/refresh (this vs earlier)" "$port"
        done
    done
    stop_process "$current_pid" "latchkey (this build)"
    stop_process "$baseline_pid" "latchkey (baseline)"
    current_pid=""
    baseline_pid=""
    for label in "GET /healthz (this vs earlier)" "GET /v1/users/me (this vs earlier)" "POST /v1/auth/refresh (this vs earlier)"; do
        baseline_ratio_line "$label"
    done
    bench_postgres_against_baseline "$earlier"
}

bench_metrics_labels() {
    local count="${BENCH_LABELS_COUNT:-10000}" growth scrape
    say "$count distinct method tokens and $count distinct unmatched paths, pipelined, then a scrape of /metrics"
    timeout 300 python3 "$root/bench/metrics_labels.py" --port "$latchkey_port" --pid "$latchkey_pid" --count "$count" \
        >"$work/metrics-labels.txt" || { cat "$work/metrics-labels.txt" >&2; fail "bench/metrics_labels.py failed"; }
    growth="$(awk -F= '$1 == "growth_mb" { print $2 }' "$work/metrics-labels.txt")"
    scrape="$(awk -F= '$1 == "scrape_bytes" { print $2 }' "$work/metrics-labels.txt")"
    baseline_summary+=("target $count distinct method tokens and $count distinct unmatched paths: the server grew ${growth} MB (under ${target_labels_growth_mb} MB: $(verdict "$growth" "$target_labels_growth_mb")), the next scrape is ${scrape} bytes (under ${target_labels_scrape_bytes}: $(verdict "$scrape" "$target_labels_scrape_bytes"))")
}
