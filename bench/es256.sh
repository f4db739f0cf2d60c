# ES256 access tokens against HS256 (sourced by bench/run; uses its helpers and variables):
# two servers of this build on fresh data directories, one with accessTokenAlgorithm HS256
# and one with ES256, take turns (HS256, ES256, ES256, HS256; then ES256, HS256, HS256,
# ES256) on GET /v1/users/me at 64 connections, each with a token of its own. The verified-
# token cache keeps ES256 to one signature check per token, so the target is that the
# ES256 side loses no more than 10 % (ratio of requests/s summed over the turns >= 0.9).

es256_summary=()
hs256_port=""
es256_port=""
target_es256_me_ratio=0.9

start_algorithm_side() {  # algorithm data-dir log -> sets side_pid side_port
    side_port="$(free_port)"
    mkdir -p "$2"
    LATCHKEY_MAX_CONNECTIONS="$max_connections" LATCHKEY_MAX_CONNECTIONS_PER_ADDRESS="$max_connections" \
    LATCHKEY_RATE_LIMITS_ENABLED=false LATCHKEY_ACCESS_TOKEN_ALGORITHM="$1" \
        "$binary" serve --host 127.0.0.1 --port "$side_port" --data-dir "$2" >"$3" 2>&1 &
    side_pid=$!
    wait_until_healthy "$side_pid" "$side_port" "latchkey $1 ($2)" "$3"
}

# One round's sides in turn, the order flipped in the second round (ABBA, then BAAB).
es256_round() {  # round
    if (($1 % 2)); then echo hs256 es256 es256 hs256; else echo es256 hs256 hs256 es256; fi
}

bench_es256() {
    local hs256_pid es256_pid signup_body token_hs256 token_es256 round side token line
    start_algorithm_side HS256 "$work/hs256-data" "$work/hs256.log"
    hs256_pid="$side_pid"; hs256_port="$side_port"
    start_algorithm_side ES256 "$work/es256-data" "$work/es256.log"
    es256_pid="$side_pid"; es256_port="$side_port"
    signup_body="$(printf '{"email":"%s","password":"%s","displayName":"bench_user"}' "$bench_email" "$bench_password")"
    token_hs256="$(pg_post_json "$hs256_port" /v1/auth/signup "$signup_body" | json_field accessToken)"
    token_es256="$(pg_post_json "$es256_port" /v1/auth/signup "$signup_body" | json_field accessToken)"
    for round in 1 2; do
        for side in $(es256_round "$round"); do
            if [[ $side == hs256 ]]; then token="$token_hs256"; else token="$token_es256"; fi
            run_wrk "GET /v1/users/me (ES256 vs HS256)" "latchkey_$side" 2 64 /v1/users/me -H "Authorization: Bearer $token"
        done
    done
    stop_process "$hs256_pid" "latchkey (HS256)"
    stop_process "$es256_pid" "latchkey (ES256)"
    line="$(awk -F'\t' '
        $1 == "GET /v1/users/me (ES256 vs HS256)" && $2 == "latchkey_es256" { e += $4; turns = turns sprintf(" ES256 %.0f", $4) }
        $1 == "GET /v1/users/me (ES256 vs HS256)" && $2 == "latchkey_hs256" { h += $4; turns = turns sprintf(" HS256 %.0f", $4) }
        END { if (e > 0 && h > 0) printf "%.0f %.0f %.3f%s", e, h, e / h, turns }
    ' "$results")"
    if [[ -z "$line" ]]; then
        es256_summary+=("target GET /v1/users/me with ES256 against HS256: not measured")
        return
    fi
    local es hs ratio turns
    read -r es hs ratio turns <<<"$line"
    es256_summary+=("target GET /v1/users/me at 64 connections, ES256 to HS256 (summed over 8 turns, ABBA then BAAB): ${es} to ${hs} req/s, ratio ${ratio} (at least ${target_es256_me_ratio}: $(awk -v r="$ratio" -v t="$target_es256_me_ratio" 'BEGIN { print (r >= t) ? "met" : "NOT met" }'))")
    es256_summary+=("  the turns in order, req/s:${turns}")
}
