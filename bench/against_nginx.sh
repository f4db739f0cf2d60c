# Latchkey against nginx in the same seconds (sourced by bench/run; uses its helpers and
# variables). This machine's speed drifts by a third within seconds, so a ratio to a figure
# taken minutes earlier flatters or wrongs either side: every ratio to nginx is taken from
# turns at 64 connections, nginx, latchkey, latchkey, nginx, then latchkey, nginx, nginx,
# latchkey (four turns a side), and is the median of latchkey's turns to the median of
# nginx's. nginx (one worker) answers its static JSON /healthz against latchkey's
# GET /healthz, GET /v1/users/me and refresh, and serves the very file latchkey serves
# against the picture GET. Each turn is a row "LABEL (turns)" of $results; the summary
# prints both medians, every turn, and the target.

# Turns of LABEL: latchkey on LATCHKEY_PATH (with the wrk arguments after it), nginx on
# NGINX_PATH. A refresh turn logs in fresh sessions first, one token chain per
# connection, and runs wrk's 2 threads as nginx's turns do (refresh_script).
nginx_turns() {  # label latchkey-path nginx-path [latchkey wrk args...]
    local label="$1" latchkey_path="$2" nginx_path="$3" side tokens=()
    shift 3
    for side in nginx latchkey latchkey nginx latchkey nginx nginx latchkey; do
        if [[ "$side" == nginx ]]; then
            run_wrk "$label (turns)" nginx 2 64 "$nginx_path"
        elif [[ "$latchkey_path" == /v1/auth/refresh ]]; then
            mapfile -t tokens < <(pg_login_sessions "$(refresh_sessions 2 64)" "$latchkey_port")
            ((${#tokens[@]} == $(refresh_sessions 2 64))) || fail "only ${#tokens[@]} sessions for a refresh turn"
            run_wrk "$label (turns)" latchkey 2 64 /v1/auth/refresh -s "$(refresh_script 2 "${tokens[@]}")"
        else
            run_wrk "$label (turns)" latchkey 2 64 "$latchkey_path" "$@"
        fi
    done
}

# The target line of LABEL's turns: both medians, the ratio, every turn in order.
nginx_turns_target() {  # label target description
    awk -F'\t' -v label="$1 (turns)" -v target="$2" -v what="$3" '
        function median(values, count,   i, j, swap) {
            for (i = 2; i <= count; i++) for (j = i; j > 1 && values[j - 1] > values[j]; j--) { swap = values[j]; values[j] = values[j - 1]; values[j - 1] = swap }
            return count % 2 ? values[(count + 1) / 2] : (values[count / 2] + values[count / 2 + 1]) / 2
        }
        $1 == label && $2 == "latchkey" { l[++nl] = $4; turns = turns sprintf(" latchkey %.0f", $4) }
        $1 == label && $2 == "nginx" { n[++nn] = $4; turns = turns sprintf(" nginx %.0f", $4) }
        END {
            if (nl < 3 || nn < 3) { printf "target %s: not measured\n", what; exit }
            ml = median(l, nl); mn = median(n, nn)
            printf "target %s: latchkey %.0f req/s to nginx %.0f req/s (medians of %d turns each, in the same seconds), ratio %.2f (at least %.2f): %s\n", what, ml, mn, nl, ml / mn, target, (ml / mn >= target ? "met" : "NOT met")
            printf "  the turns in order, req/s:%s\n", turns
        }
    ' "$results"
}

# GET /healthz, GET /v1/users/me and refresh against nginx's GET /healthz, once the bench
# user exists (bench_accounts).
bench_against_nginx() {  # access-token
    say "latchkey and nginx in turns at 64 connections: GET /healthz, GET /v1/users/me, POST /v1/auth/refresh"
    nginx_turns "GET /healthz" /healthz /healthz
    nginx_turns "GET /v1/users/me" /v1/users/me /healthz -H "Authorization: Bearer $1"
    nginx_turns "POST /v1/auth/refresh" /v1/auth/refresh /healthz
}

# The issue's targets, each from turns.
issue_targets() {
    nginx_turns_target "GET /healthz" "$target_healthz_ratio" "GET /healthz at 64 connections, to nginx's GET /healthz"
    nginx_turns_target "GET /v1/users/me" "$target_me_ratio" "GET /v1/users/me at 64 connections, to nginx's GET /healthz"
    nginx_turns_target "POST /v1/auth/refresh" "$target_refresh_ratio" "POST /v1/auth/refresh at 64 connections, to nginx's GET /healthz"
}
