# This build's PostgreSQL pair against the earlier build's (sourced by bench/run; called by
# bench_against_baseline with the earlier binary; uses postgres.sh's pair helpers and
# baseline.sh's ratio lines). Each side is a pair as bench_postgres runs it: two instances
# of its build sharing a data directory and a signing key over their own throwaway cluster
# (scripts/postgres, so both clusters have the same settings and neither side's database
# holds the other's rows), both pairs running side by side. They take turns (this, earlier,
# earlier, this; then earlier, this, this, earlier, so neither side always goes first) on
#   GET /v1/users/me at 64 connections: two wrk -t1 -c32, one per instance, started together;
#   POST /v1/auth/refresh at 64 connections: fresh sessions a turn, 32 logged in through
#   each instance, two wrk -t1 -c32, each connection following its own token chain.
# Each ratio is of the requests/s summed over the turns (both instances together). Both
# builds log every request and count it for /metrics (start_postgres_instance turns both
# on; the earlier build's access log was off by default). Without a PostgreSQL server on
# the machine the part says so and is skipped.

baseline_postgres_turns=(current baseline baseline current baseline current current baseline)

# The CPU notes pg_wrk_pair wrote, one line per LABEL and side: the mean over its turns.
baseline_postgres_cpu() {
    awk -F': ' '
        {
            split($2, word, " ")  # latchkey N us, postgres M us of CPU per request
            if (!($1 in turns)) order[++n] = $1
            turns[$1]++; latchkey[$1] += word[2]; postgres[$1] += word[5]
        }
        END {
            for (i = 1; i <= n; i++)
                printf "  CPU: %s: latchkey %.0f us, postgres %.0f us of CPU per request (mean of %d turns)\n",
                    order[i], latchkey[order[i]] / turns[order[i]], postgres[order[i]] / turns[order[i]], turns[order[i]]
        }
    ' "$work/postgres-cpu.txt"
}

bench_postgres_against_baseline() {  # earlier-binary
    local me_label="GET /v1/users/me (pg x2, this vs earlier)" refresh_label="POST /v1/auth/refresh (pg x2, this vs earlier)"
    local side token_current token_baseline token cpu=() errors=()
    if ! start_postgres_pair pg-current "$binary" latchkey_current; then
        baseline_summary+=("target the PostgreSQL pair at 64 connections against $BENCH_BASELINE: not measured (no PostgreSQL server on this machine)")
        return
    fi
    start_postgres_pair pg-baseline "$1" latchkey_baseline
    : >"$work/postgres-cpu.txt"
    token_current="$(pg_post_json "${pg_a_ports[pg-current]}" /v1/auth/signup "$(signup_body)" | json_field accessToken)"
    token_baseline="$(pg_post_json "${pg_a_ports[pg-baseline]}" /v1/auth/signup "$(signup_body)" | json_field accessToken)"

    for side in "${baseline_postgres_turns[@]}"; do
        if [[ $side == current ]]; then token="$token_current"; else token="$token_baseline"; fi
        pg_wrk_pair "pg-$side" "$me_label" 1 32 /v1/users/me - - -H "Authorization: Bearer $token"
    done
    say "refresh turns over PostgreSQL, this build against the earlier one: fresh sessions for each"
    for side in "${baseline_postgres_turns[@]}"; do
        pg_refresh_turn "pg-$side" "$refresh_label"
    done

    postgres_pair_alive pg-current || fail "a PostgreSQL latchkey of this build died during the comparison"
    postgres_pair_alive pg-baseline || fail "a PostgreSQL latchkey of the earlier build died during the comparison"
    stop_postgres_pair pg-current
    stop_postgres_pair pg-baseline

    baseline_ratio_line "$me_label"
    baseline_ratio_line "$refresh_label"
    # A refresh answered 401 (a broken chain) still counts as a request to wrk: say so.
    mapfile -t errors < <(awk -F'\t' -v me="$me_label" -v refresh="$refresh_label" '
        ($1 == me || $1 == refresh) && $7 > 0 { printf "  %s on %s: %d errors (non-2xx answers or socket errors) in one turn\n", $1, $2, $7 }
    ' "$results")
    baseline_summary+=("${errors[@]}")
    mapfile -t cpu < <(baseline_postgres_cpu)
    baseline_summary+=("${cpu[@]}")
}
