# Presence for bench/run (sourced; uses its helpers and variables): PUT /v1/presence at
# every load in BENCH_LOADS (each update durable: the writer commits what waits as one
# batch), then BENCH_PRESENCE_STREAMS presence streams open at once, with latchkey's memory
# and how fast a change reaches the streams watching it; then as many streams all watching
# one user, and how fast one change of that user reaches all of them.

presence_summary=()
target_presence_put_rps=5000
target_streams_mb=100
target_stream_p99_ms=50

wrk_put_presence_script() {  # token
    local script
    script="$(mktemp "$work/presence.XXXXXX.lua")"
    cat >"$script" <<EOF_LUA
wrk.method = "PUT"
wrk.path = "/v1/presence"
wrk.body = '{"status":"online"}'
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer $1"
EOF_LUA
    echo "$script"
}

bench_presence_updates() {
    local token
    token="$(post_json /v1/auth/signup '{"email":"presence@example.com","password":"correct horse battery staple","displayName":"bench_presence"}' | json_field accessToken)"
    bench_endpoint "PUT /v1/presence (durable)" /v1/presence latchkey -s "$(wrk_put_presence_script "$token")"
    local rps
    rps="$(awk -F'\t' '$1 == "PUT /v1/presence (durable)" && $3 == 64 { print $4 }' "$results")"
    presence_summary+=("target PUT /v1/presence at 64 connections, every update committed before its answer: ${rps:-n/a} req/s (at least ${target_presence_put_rps}): $(awk -v r="${rps:-0}" -v t="$target_presence_put_rps" 'BEGIN { print (r >= t) ? "met" : "NOT met" }')")
}

streams_value() {  # key
    awk -F= -v key="$1" '$1 == key { print $2 }' "$work/presence-streams.txt"
}

bench_presence_streams() {
    local count="${BENCH_PRESENCE_STREAMS:-10000}"
    say "opening $count presence streams, then timing 100 status changes to their watchers"
    # Up to 5 minutes more than the streams need: 1,250 logins of 8 streams each.
    timeout 600 python3 "$root/bench/presence_streams.py" --port "$latchkey_port" --pid "$latchkey_pid" \
        --streams "$count" >"$work/presence-streams.txt" || { cat "$work/presence-streams.txt" >&2; fail "presence-stream helper failed"; }
    cat "$work/presence-streams.txt" >&2
    presence_summary+=("target $(streams_value answered) of $(streams_value streams) presence streams open: latchkey VmRSS $(streams_value rss_streams_mb) MB ($(streams_value rss_before_mb) MB before) (under ${target_streams_mb} MB): $(verdict "$(streams_value rss_streams_mb)" "$target_streams_mb")")
    presence_summary+=("target a change reaching its watchers with them open: p50 $(streams_value p50_ms) ms, p99 $(streams_value p99_ms) ms, max $(streams_value max_ms) ms over $(streams_value deliveries) deliveries of $(streams_value changes) changes, $(streams_value missed) missed (p99 under ${target_stream_p99_ms} ms): $(verdict "$(streams_value p99_ms)" "$target_stream_p99_ms")")
}

one_user_value() {  # key
    awk -F= -v key="$1" '$1 == key { print $2 }' "$work/presence-one-user.txt"
}

bench_presence_one_user() {
    local count="${BENCH_PRESENCE_STREAMS:-10000}"
    say "opening $count presence streams all watching one user, then timing 20 changes of that user at 200 of them"
    # Logins of 8 streams each, in parallel over 8 watcher accounts: about 2 minutes.
    timeout 600 python3 "$root/bench/presence_one_user.py" --port "$latchkey_port" --streams "$count" \
        >"$work/presence-one-user.txt" || { cat "$work/presence-one-user.txt" >&2; fail "one-user presence helper failed"; }
    cat "$work/presence-one-user.txt" >&2
    presence_summary+=("target one change to $(one_user_value streams) streams watching one user, timed at $(one_user_value sampled) of them: p50 $(one_user_value p50_ms) ms, p99 $(one_user_value p99_ms) ms, max $(one_user_value max_ms) ms over $(one_user_value changes) changes, missed=$(one_user_value missed) (every stream read at the end), out of order $(one_user_value disordered), late $(one_user_value late) (p99 under ${target_stream_p99_ms} ms, none missed): $(one_user_verdict)")
}

one_user_verdict() {
    if [[ "$(one_user_value missed)" == 0 && "$(one_user_value disordered)" == 0 ]]; then
        verdict "$(one_user_value p99_ms)" "$target_stream_p99_ms"
    else
        echo "NOT met"
    fi
}
