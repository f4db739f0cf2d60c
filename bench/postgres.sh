# PostgreSQL for bench/run (sourced; uses its helpers and variables, and accounts.sh's
# bench user): two latchkeys (the same binary) over one throwaway PostgreSQL cluster made by
# scripts/postgres in the bench's temporary directory, sharing one fresh data directory and
# one signing key, against the run's SQLite latchkey, taking turns:
#   GET /v1/users/me at 64 connections: two wrk processes started together (-t1 -c32, one
#   per instance, their requests/s summed) against one wrk -t2 -c64 on SQLite, in turns
#   SQLite, PostgreSQL, PostgreSQL, SQLite (so neither always goes first);
#   POST /v1/auth/refresh at 64 connections, each connection following its own rotating
#   token chain (as accounts.sh: fresh sessions for every turn, two wrk -t1 -c32 against
#   one wrk -t2 -c64), in the same turns as GET /v1/users/me;
#   POST /v1/auth/login at 16 connections, bound by PBKDF2 on the hashing pools (two wrk
#   -t1 -c8 against one wrk -t2 -c16), in the same turns as GET /v1/users/me;
#   a presence change made through one instance (PUT /v1/presence) timed until a stream on
#   the other delivers it (bench/presence_cross.py).
# Every ratio is the requests/s of both PostgreSQL instances together to the SQLite
# instance's, summed over the turns. The CPU each side spent per request (latchkey, the
# PostgreSQL server) is reported beside the figures.

postgres_summary=()
# The running pairs, by name (this part's "postgres"; baseline_postgres.sh's two): each
# pair's cluster directory, its instances A and B, and the server name of its results rows.
declare -A pg_dirs=() pg_a_pids=() pg_a_ports=() pg_b_pids=() pg_b_ports=() pg_servers=()
pg_wrk_pids=()
target_pg_me_ratio=0.9
target_pg_refresh_ratio=0.9
target_pg_login_ratio=0.9
target_pg_presence_p99_ms=100

# Stops one pair (its instances first, then its cluster); must not fail.
stop_postgres_pair() {  # pair
    stop_process "${pg_a_pids[$1]:-}" "latchkey (postgres $1 A)"
    stop_process "${pg_b_pids[$1]:-}" "latchkey (postgres $1 B)"
    unset "pg_a_pids[$1]" "pg_b_pids[$1]"
    if [[ -n "${pg_dirs[$1]:-}" ]]; then
        timeout 90 "$root/scripts/postgres" stop "${pg_dirs[$1]}" >&2 || say "scripts/postgres stop ${pg_dirs[$1]} failed"
        unset "pg_dirs[$1]"
    fi
}

# Stops every wrk and every pair still running; called by bench/run's EXIT trap too, so it
# must not fail.
stop_postgres_part() {
    local pid pair
    for pid in "${pg_wrk_pids[@]}"; do stop_process "$pid" "wrk (postgres)"; done
    pg_wrk_pids=()
    for pair in "${!pg_dirs[@]}"; do stop_postgres_pair "$pair"; done
}

start_postgres_instance() {  # binary url port key data-dir log
    # As start_latchkey: rate limits off, the connection caps as high as the SQLite one's.
    # Metrics and the access log on, as this build's defaults, so that an earlier build
    # (baseline_postgres.sh; its log was off by default) does the same work per request.
    LATCHKEY_DATABASE="$2" LATCHKEY_SIGNING_KEYS="$4" LATCHKEY_ISSUER=https://bench.latchkey.test \
    LATCHKEY_MAX_CONNECTIONS="$max_connections" LATCHKEY_MAX_CONNECTIONS_PER_ADDRESS="$max_connections" \
    LATCHKEY_RATE_LIMITS_ENABLED=false LATCHKEY_ACCESS_LOG=true LATCHKEY_METRICS_ENABLED=true \
        "$1" serve --host 127.0.0.1 --port "$3" --data-dir "$5" >"$6" 2>&1 &
}

# A pair named PAIR: a throwaway cluster in $work/PAIR (scripts/postgres, the same settings
# for every pair), and two instances of BINARY over it sharing the data directory
# $work/PAIR-data and one signing key; their results rows are named SERVER. Returns 1 (and
# says why) when this machine has no PostgreSQL server to run.
start_postgres_pair() {  # pair binary server
    local pair="$1" shared="$work/$1-data" key url dir="$work/$1"
    if ! compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null; then
        say "no PostgreSQL server under /usr/lib/postgresql (Debian's postgresql package): PostgreSQL part skipped"
        return 1
    fi
    # As root, scripts/postgres runs the server as `postgres`, which must be able to reach
    # its directory inside the bench's (mode 0700) temporary one: search only, for its group.
    if ((EUID == 0)); then
        chgrp postgres "$work" && chmod g+x "$work" || fail "could not open $work to the postgres user"
    fi
    pg_dirs[$pair]="$dir"
    pg_servers[$pair]="$3"
    say "starting a throwaway PostgreSQL cluster in $dir"
    url="$(timeout 120 "$root/scripts/postgres" start "$dir")" || fail "scripts/postgres start failed"
    mkdir -p "$shared"
    key="bench:$(head -c 48 /dev/urandom | base64 -w0)"
    # One after the other: the first migrates and writes refresh-token-key into the shared
    # data directory, the second finds both there.
    pg_a_ports[$pair]="$(free_port)"
    start_postgres_instance "$2" "$url" "${pg_a_ports[$pair]}" "$key" "$shared" "$work/$pair-a.log"
    pg_a_pids[$pair]=$!
    wait_until_healthy "${pg_a_pids[$pair]}" "${pg_a_ports[$pair]}" "latchkey (postgres $pair A)" "$work/$pair-a.log"
    pg_b_ports[$pair]="$(free_port)"
    start_postgres_instance "$2" "$url" "${pg_b_ports[$pair]}" "$key" "$shared" "$work/$pair-b.log"
    pg_b_pids[$pair]=$!
    wait_until_healthy "${pg_b_pids[$pair]}" "${pg_b_ports[$pair]}" "latchkey (postgres $pair B)" "$work/$pair-b.log"
    say "latchkey over PostgreSQL ($pair): A (pid ${pg_a_pids[$pair]}) on 127.0.0.1:${pg_a_ports[$pair]}, B (pid ${pg_b_pids[$pair]}) on 127.0.0.1:${pg_b_ports[$pair]}: $(head -n 1 "$work/$pair-a.log")"
}

# Both instances of PAIR are still running (a crash during a turn shows here).
postgres_pair_alive() {  # pair
    kill -0 "${pg_a_pids[$1]}" 2>/dev/null && kill -0 "${pg_b_pids[$1]}" 2>/dev/null
}

# POST JSON to a port; prints the response body, fails on a non-2xx status.
pg_post_json() {  # port path json
    python3 - "$1" "$2" "$3" <<'EOF_PY'
import sys, urllib.request
port, path, body = sys.argv[1], sys.argv[2], sys.argv[3]
request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=body.encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
with urllib.request.urlopen(request, timeout=60) as response:
    sys.stdout.write(response.read().decode())
EOF_PY
}

# COUNT logins of the bench user, spread round robin over PORTS, 4 at a time (the hashing
# pools work on them in parallel); prints one refresh token per line.
pg_login_sessions() {  # count port...
    python3 - "$bench_email" "$bench_password" "$@" <<'EOF_PY'
import concurrent.futures, json, sys, urllib.request
email, password, count, ports = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
body = json.dumps({"email": email, "password": password}).encode()
def login(index):
    request = urllib.request.Request(f"http://127.0.0.1:{ports[index % len(ports)]}/v1/auth/login", data=body,
                                     method="POST", headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=120) as response:
        return json.load(response)["refreshToken"]
with concurrent.futures.ThreadPoolExecutor(4) as pool:
    for token in pool.map(login, range(count)):
        print(token)
EOF_PY
}

# CPU time (clock ticks, user + system) of the given processes and, for a postmaster, of its
# children (the backends serving the instances).
cpu_ticks() {  # pid...
    local pid child total=0
    for pid in "$@"; do
        [[ -r "/proc/$pid/stat" ]] || continue
        total=$((total + $(awk '{ sub(/.*\) /, ""); print $12 + $13 }' "/proc/$pid/stat")))
        for child in $(ps -o pid= --ppid "$pid" 2>/dev/null); do
            [[ -r "/proc/$child/stat" ]] || continue
            total=$((total + $(awk '{ sub(/.*\) /, ""); print $12 + $13 }' "/proc/$child/stat" 2>/dev/null || echo 0)))
        done
    done
    echo "$total"
}

postmaster_pid() {  # pair
    head -n 1 "${pg_dirs[$1]}/data/postmaster.pid" 2>/dev/null || true
}

# Appends "label<TAB>µs of CPU per request: latchkey X, postgres Y" to $work/postgres-cpu.txt.
note_cpu() {  # label server rps latchkey-ticks postgres-ticks
    awk -v label="$1" -v server="$2" -v rps="$3" -v l="$4" -v p="$5" -v hz="$(getconf CLK_TCK)" -v d="$duration" '
        BEGIN {
            n = rps * d
            if (n <= 0) exit
            printf "%s on %s: latchkey %.0f us", label, server, l / hz * 1e6 / n
            if (p != "") printf ", postgres %.0f us", p / hz * 1e6 / n
            printf " of CPU per request\n"
        }' >>"$work/postgres-cpu.txt"
}

# One wrk against the SQLite latchkey; appends a results row (server "sqlite").
pg_wrk_sqlite() {  # label threads connections path [wrk args...]
    local label="$1" threads="$2" connections="$3" path="$4" output figures before
    shift 4
    output="$work/wrk-pg-$(tr -c 'A-Za-z0-9' '_' <<<"$label")-sqlite-$RANDOM.txt"
    say "wrk -t$threads -c$connections -d${duration}s $label on the SQLite latchkey"
    before="$(cpu_ticks "$latchkey_pid")"
    timeout "$((duration + 40))" \
        wrk -t"$threads" -c"$connections" -d"${duration}s" --latency "$@" "http://127.0.0.1:$latchkey_port$path" >"$output"
    figures="$(parse_wrk "$output")" || { cat "$output" >&2; fail "could not read wrk's output"; }
    note_cpu "$label" sqlite "${figures%% *}" "$(($(cpu_ticks "$latchkey_pid") - before))" ""
    printf '%s\t%s\t%s\t%s\n' "$label" sqlite "$connections" "${figures// /$'\t'}" >>"$results"
}

# Two wrk processes started together, one per instance of PAIR, each with THREADS and
# CONNECTIONS, waited for; appends one results row (server: the pair's, e.g. "pg x2") with
# their requests/s and errors summed and, for p50 and p99, the worse of the two. SCRIPT_A
# and SCRIPT_B are per-instance wrk Lua scripts ("-" for none).
pg_wrk_pair() {  # pair label threads connections path script-a script-b [wrk args...]
    local pair="$1" label="$2" threads="$3" connections="$4" path="$5" script_a="$6" script_b="$7"
    local base output_a output_b args_a=() args_b=() status_a=0 status_b=0 figures_a figures_b
    local before_l before_p postmaster combined server="${pg_servers[$1]}"
    shift 7
    [[ "$script_a" != - ]] && args_a=(-s "$script_a")
    [[ "$script_b" != - ]] && args_b=(-s "$script_b")
    base="$work/wrk-pg-$(tr -c 'A-Za-z0-9' '_' <<<"$label")-$RANDOM"
    output_a="$base-a.txt"
    output_b="$base-b.txt"
    postmaster="$(postmaster_pid "$pair")"
    say "2 x wrk -t$threads -c$connections -d${duration}s $label on the PostgreSQL latchkeys A and B of $pair at once"
    before_l="$(cpu_ticks "${pg_a_pids[$pair]}" "${pg_b_pids[$pair]}")"
    before_p="$(cpu_ticks "$postmaster")"
    timeout "$((duration + 40))" wrk -t"$threads" -c"$connections" -d"${duration}s" --latency "${args_a[@]}" "$@" \
        "http://127.0.0.1:${pg_a_ports[$pair]}$path" >"$output_a" &
    pg_wrk_pids+=($!)
    timeout "$((duration + 40))" wrk -t"$threads" -c"$connections" -d"${duration}s" --latency "${args_b[@]}" "$@" \
        "http://127.0.0.1:${pg_b_ports[$pair]}$path" >"$output_b" &
    pg_wrk_pids+=($!)
    wait "${pg_wrk_pids[0]}" || status_a=$?
    wait "${pg_wrk_pids[1]}" || status_b=$?
    pg_wrk_pids=()
    ((status_a == 0 && status_b == 0)) || { cat "$output_a" "$output_b" >&2; fail "wrk against the PostgreSQL latchkeys failed ($status_a, $status_b)"; }
    figures_a="$(parse_wrk "$output_a")" || { cat "$output_a" >&2; fail "could not read wrk's output"; }
    figures_b="$(parse_wrk "$output_b")" || { cat "$output_b" >&2; fail "could not read wrk's output"; }
    say "  A: ${figures_a%% *} req/s, B: ${figures_b%% *} req/s"
    combined="$(awk -v a="$figures_a" -v b="$figures_b" 'BEGIN {
        split(a, x, " "); split(b, y, " ")
        printf "%.0f\t%.3f\t%.3f\t%d", x[1] + y[1], (x[2] > y[2] ? x[2] : y[2]), (x[3] > y[3] ? x[3] : y[3]), x[4] + y[4] }')"
    note_cpu "$label" "$server" "${combined%%$'\t'*}" \
        "$(($(cpu_ticks "${pg_a_pids[$pair]}" "${pg_b_pids[$pair]}") - before_l))" "$(($(cpu_ticks "$postmaster") - before_p))"
    printf '%s\t%s\t%s\t%s\n' "$label" "$server" "$((connections * 2))" "$combined" >>"$results"
}

# PostgreSQL requests/s to SQLite's for LABEL, each summed over its rows (turns); then
# both sums and both error counts (wrk's non-2xx answers and socket errors).
pg_ratio() {  # label
    awk -F'\t' -v label="$1" '
        $1 == label && $2 == "sqlite" { s += $4; se += $7 }
        $1 == label && $2 == "pg x2" { p += $4; pe += $7 }
        END { if (s > 0 && p > 0) printf "%.2f %.0f %.0f %d %d\n", p / s, p, s, pe, se }
    ' "$results"
}

pg_ratio_line() {  # label what target
    local ratio pg sqlite pg_errors sqlite_errors
    read -r ratio pg sqlite pg_errors sqlite_errors <<<"$(pg_ratio "$1")"
    if [[ -z "$ratio" ]]; then
        postgres_summary+=("target $2: not measured")
        return
    fi
    postgres_summary+=("target $2: ${pg} req/s on two PostgreSQL instances to ${sqlite} req/s on one SQLite instance (summed over the turns; errors ${pg_errors} and ${sqlite_errors}): ratio ${ratio} (at least $3): $(awk -v r="$ratio" -v t="$3" 'BEGIN { print (r >= t) ? "met" : "NOT met" }')")
}

# One refresh turn on SQLite or on a PostgreSQL pair: fresh sessions logged in, then
# 2 wrk threads each side (1 per instance), every connection following its own session's chain (refresh_script).
pg_refresh_turn() {  # sqlite|pair label
    local tokens=() script_a script_b
    if [[ "$1" == sqlite ]]; then
        mapfile -t tokens < <(pg_login_sessions "$(refresh_sessions 2 64)" "$latchkey_port")
        ((${#tokens[@]} == $(refresh_sessions 2 64))) || fail "only ${#tokens[@]} SQLite sessions for the refresh run"
        script_a="$(refresh_script 2 "${tokens[@]}")"
        mv "$script_a" "$work/refresh-pg-sqlite.lua"
        pg_wrk_sqlite "$2" 2 64 /v1/auth/refresh -s "$work/refresh-pg-sqlite.lua"
    else
        mapfile -t tokens < <(pg_login_sessions "$(refresh_sessions 2 64)" "${pg_a_ports[$1]}" "${pg_b_ports[$1]}")
        ((${#tokens[@]} == $(refresh_sessions 2 64))) || fail "only ${#tokens[@]} PostgreSQL sessions for the refresh run"
        script_a="$(refresh_script 1 "${tokens[@]:0:33}")"
        mv "$script_a" "$work/refresh-pg-a.lua"
        script_b="$(refresh_script 1 "${tokens[@]:33:33}")"
        mv "$script_b" "$work/refresh-pg-b.lua"
        pg_wrk_pair "$1" "$2" 1 32 /v1/auth/refresh "$work/refresh-pg-a.lua" "$work/refresh-pg-b.lua"
    fi
}

cross_value() {  # key
    awk -F= -v key="$1" '$1 == key { print $2 }' "$work/presence-cross.txt"
}

bench_postgres() {
    if ! start_postgres_pair postgres "$binary" "pg x2"; then
        postgres_summary+=("target PostgreSQL (two instances): not measured (no PostgreSQL server on this machine)")
        return
    fi
    : >"$work/postgres-cpu.txt"
    local token_sqlite token_pg me_label="GET /v1/users/me (sqlite vs pg)" login_label="POST /v1/auth/login (sqlite vs pg)"
    local refresh_label="POST /v1/auth/refresh (sqlite vs pg)" login_script index line
    say "signing up the bench user on PostgreSQL (through A)"
    token_pg="$(pg_post_json "${pg_a_ports[postgres]}" /v1/auth/signup "$(signup_body)" | json_field accessToken)"
    token_sqlite="$(post_json /v1/auth/login "$(login_body)" | json_field accessToken)"

    # GET /v1/users/me, in turns.
    pg_wrk_sqlite "$me_label" 2 64 /v1/users/me -H "Authorization: Bearer $token_sqlite"
    pg_wrk_pair postgres "$me_label" 1 32 /v1/users/me - - -H "Authorization: Bearer $token_pg"
    pg_wrk_pair postgres "$me_label" 1 32 /v1/users/me - - -H "Authorization: Bearer $token_pg"
    pg_wrk_sqlite "$me_label" 2 64 /v1/users/me -H "Authorization: Bearer $token_sqlite"

    # Login, in the same turns. A login waits behind up to 15 others for the hashing threads:
    # wrk's 2 s default timeout would count those as errors.
    login_script="$(wrk_post_script /v1/auth/login "$(login_body)")"
    pg_wrk_sqlite "$login_label" 2 16 /v1/auth/login --timeout 30s -s "$login_script"
    sleep 3  # the logins still queued finish
    pg_wrk_pair postgres "$login_label" 1 8 /v1/auth/login "$login_script" "$login_script" --timeout 30s
    sleep 3
    pg_wrk_pair postgres "$login_label" 1 8 /v1/auth/login "$login_script" "$login_script" --timeout 30s
    sleep 3
    pg_wrk_sqlite "$login_label" 2 16 /v1/auth/login --timeout 30s -s "$login_script"
    sleep 3

    # Refresh, in the same turns: fresh sessions for each turn, one token chain per wrk
    # thread (a chain a turn has rotated cannot be replayed: its first token would be a reuse).
    say "refresh turns: fresh sessions for each, on SQLite or on PostgreSQL (32 through each instance)"
    pg_refresh_turn sqlite "$refresh_label"
    pg_refresh_turn postgres "$refresh_label"
    pg_refresh_turn postgres "$refresh_label"
    pg_refresh_turn sqlite "$refresh_label"

    # Presence across instances.
    local changes="${BENCH_PG_PRESENCE_CHANGES:-500}"
    say "timing $changes presence changes made through A to streams on B"
    timeout 300 python3 "$root/bench/presence_cross.py" --port-a "${pg_a_ports[postgres]}" --port-b "${pg_b_ports[postgres]}" \
        --changes "$changes" >"$work/presence-cross.txt" || { cat "$work/presence-cross.txt" >&2; fail "cross-instance presence helper failed"; }
    cat "$work/presence-cross.txt" >&2

    postgres_pair_alive postgres || fail "a PostgreSQL latchkey died during the bench"
    stop_postgres_pair postgres

    pg_ratio_line "$me_label" "GET /v1/users/me at 64 connections, two PostgreSQL instances (32 each) to SQLite" "$target_pg_me_ratio"
    pg_ratio_line "$refresh_label" "POST /v1/auth/refresh at 64 connections, two PostgreSQL instances (32 each) to SQLite" "$target_pg_refresh_ratio"
    pg_ratio_line "$login_label" "POST /v1/auth/login at 16 connections, two PostgreSQL instances (8 each) to SQLite" "$target_pg_login_ratio"
    postgres_summary+=("target a presence change through instance A reaching a stream on instance B (PostgreSQL LISTEN/NOTIFY): p50 $(cross_value remote_p50_ms) ms, p99 $(cross_value remote_p99_ms) ms, max $(cross_value remote_max_ms) ms over $(cross_value remote_deliveries) of $(cross_value changes) changes, $(cross_value remote_missed) missed (p99 under ${target_pg_presence_p99_ms} ms): $(if [[ "$(cross_value remote_missed)" == 0 ]]; then verdict "$(cross_value remote_p99_ms)" "$target_pg_presence_p99_ms"; else echo "NOT met"; fi)")
    postgres_summary+=("  for reference, the same changes to a stream on A itself: p50 $(cross_value local_p50_ms) ms, p99 $(cross_value local_p99_ms) ms, max $(cross_value local_max_ms) ms, $(cross_value local_missed) missed; the PUT's own answer (its commit): p50 $(cross_value put_p50_ms) ms, p99 $(cross_value put_p99_ms) ms")
    while IFS= read -r line; do
        postgres_summary+=("  CPU: $line")
    done <"$work/postgres-cpu.txt"
}
