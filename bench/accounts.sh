# Accounts figures for bench/run (sourced; uses its helpers and variables), and the
# password-reset timing of a registered against an unknown address:
#   GET /v1/users/me with a valid token; the same while 16 clients log in as fast as they
#   can; login at 1 connection against one PBKDF2-HMAC-SHA256 of 600,000 iterations timed
#   in turns with it; POST /v1/auth/refresh at 64 connections, each connection following
#   its own rotating token chain.

bench_email="bench@example.com"
bench_password="correct horse battery staple"

# POST JSON to latchkey, print the response body; fail on a non-2xx status.
post_json() {  # path json
    python3 - "$latchkey_port" "$1" "$2" <<'EOF_PY'
import sys, urllib.request
port, path, body = sys.argv[1], sys.argv[2], sys.argv[3]
request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=body.encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
with urllib.request.urlopen(request, timeout=30) as response:
    sys.stdout.write(response.read().decode())
EOF_PY
}

json_field() {  # field < json
    python3 -c 'import json, sys; print(json.load(sys.stdin)[sys.argv[1]])' "$1"
}

login_body() {
    printf '{"email":"%s","password":"%s"}' "$bench_email" "$bench_password"
}

signup_body() {
    printf '{"email":"%s","password":"%s","displayName":"bench_user"}' "$bench_email" "$bench_password"
}

# Login at 1 connection against one PBKDF2-HMAC-SHA256 of 600,000 iterations (OpenSSL, as
# latchkey uses), taken in turns so both see the same machine: this VM's speed drifts by a
# third within seconds, which two separate series would mistake for overhead.
login_against_pbkdf2() {
    python3 - "$latchkey_port" "$bench_email" "$bench_password" <<'EOF_PY'
import hashlib, http.client, json, os, statistics, sys, time
port, email, password = int(sys.argv[1]), sys.argv[2], sys.argv[3]
connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
body = json.dumps({"email": email, "password": password})
logins, hashes = [], []
for attempt in range(18):
    start = time.perf_counter()
    connection.request("POST", "/v1/auth/login", body=body, headers={"Content-Type": "application/json"})
    response = connection.getresponse()
    response.read()
    assert response.status == 200, response.status
    if attempt < 3:
        continue  # warm-up: logins still queued from the storm must not count
    logins.append((time.perf_counter() - start) * 1000)
    start = time.perf_counter()
    hashlib.pbkdf2_hmac("sha256", password.encode(), os.urandom(16), 600_000, 32)
    hashes.append((time.perf_counter() - start) * 1000)
print(f"{statistics.median(logins):.1f} {statistics.median(hashes):.1f}")
EOF_PY
}

# POST /v1/auth/password-reset at 1 connection for the registered bench address and for an
# unknown one, 50 each, taken in turns: the two must not be told apart by their latency.
# The turns go registered, unknown, unknown, registered (ABBA), so each kind follows each
# kind equally often: a request pays for what the writer still does for the one before it,
# and a plain alternation would charge one kind with the other's leftovers.
reset_timing() {
    python3 - "$latchkey_port" "$bench_email" <<'EOF_PY'
import http.client, json, statistics, sys, time
port, known = int(sys.argv[1]), sys.argv[2]
connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
timings = {"known": [], "unknown": []}
for attempt in range(104):
    which = "known" if attempt % 4 in (0, 3) else "unknown"
    email = known if which == "known" else f"nobody-{attempt}@example.com"
    start = time.perf_counter()
    connection.request("POST", "/v1/auth/password-reset", body=json.dumps({"email": email}),
                       headers={"Content-Type": "application/json"})
    response = connection.getresponse()
    response.read()
    assert response.status == 202, response.status
    if attempt >= 4:  # warm-up: one ABBA round
        timings[which].append((time.perf_counter() - start) * 1000)
print(f"{statistics.median(timings['known']):.3f} {statistics.median(timings['unknown']):.3f}")
EOF_PY
}

# A wrk script for THREADS threads in which every connection refreshes a session of its
# own and sends the token each answer returns, as a client does. Each thread keeps the
# tokens not in flight in a queue: a request takes the oldest, its answer puts the
# session's new one back (wrk runs a connection's response callback before its next
# request), so a thread serves as many connections as it holds tokens, and the client
# needs no thread per connection (the nginx side runs 2 threads: so does this one). wrk
# asks each thread for one request before its connections start and throws it away, so
# give every thread one token more than its connections (refresh_sessions).
refresh_sessions() {  # threads connections: the sessions refresh_script needs
    echo $(($2 + $1))
}

# The head of a wrk script whose THREADS threads share out the tokens: `threads`, `tokens`,
# and in each thread its 1-based `index` (from setup), so a thread can take every
# THREADS-th token from its index (refresh_script, idp_sign_in_script).
token_script_head() {  # threads token...
    local threads="$1"
    shift
    printf 'local threads = %d\n' "$threads"
    printf 'local tokens = {'
    printf '"%s",' "$@"
    printf '}\n'
    cat <<'EOF_LUA'
local made = 0
function setup(thread)
    made = made + 1
    thread:set("index", made)
end
EOF_LUA
}

refresh_script() {  # threads token...
    local script="$work/refresh-$RANDOM.lua" threads="$1"
    shift
    {
        token_script_head "$threads" "$@"
        cat <<'EOF_LUA'
-- The script runs inside wrk on the server's machine, so what it spends per request is
-- taken from the server's CPU (nginx's turns run no script): each request is the head
-- made once and the token, and the next token is found by a plain search, not a pattern.
local queue, head, tail = {}, 1, 0
local marker = '"refreshToken":"'
local function formatted(token)
    return wrk.format("POST", "/v1/auth/refresh", { ["Content-Type"] = "application/json" }, '{' .. marker .. token .. '"}')
end
local requestHead, tokenLength
function init(args)
    for i = index, #tokens, threads do
        tail = tail + 1
        queue[tail] = tokens[i]
    end
    -- Refresh tokens all have one length, so all requests one head (Content-Length too).
    tokenLength = #(queue[1] or "")
    local sample = formatted(queue[1] or "")
    requestHead = sample:sub(1, #sample - #('{' .. marker .. '"}') - tokenLength)
end
function request()
    local token = queue[head] or ""
    queue[head] = nil
    head = head + 1
    if #token ~= tokenLength then return formatted(token) end
    return requestHead .. '{' .. marker .. token .. '"}'
end
function response(status, headers, body)
    local at = body:find(marker, 1, true)
    if not at then return end
    local from = at + #marker
    local to = body:find('"', from, true)
    if to then
        tail = tail + 1
        queue[tail] = body:sub(from, to - 1)
    end
end
EOF_LUA
    } >"$script"
    echo "$script"
}

bench_accounts() {
    say "signing up the bench user (PBKDF2 at latchkey's default 600,000 iterations)"
    local signup token login_script storm_pid tokens=() index
    signup="$(post_json /v1/auth/signup "$(printf '{"email":"%s","password":"%s","displayName":"bench_user"}' "$bench_email" "$bench_password")")"
    token="$(json_field accessToken <<<"$signup")"

    bench_endpoint "GET /v1/users/me" /v1/users/me latchkey -H "Authorization: Bearer $token"

    login_script="$(wrk_post_script /v1/auth/login "$(login_body)")"
    say "16 clients logging in while GET /v1/users/me is measured"
    # A login waits behind up to 15 others for the two hashing threads: wrk's 2 s default
    # timeout would count those as errors.
    timeout "$((duration + 40))" wrk -t2 -c16 -d"$((duration + 2))s" --latency --timeout 30s -s "$login_script" \
        "http://127.0.0.1:$latchkey_port/v1/auth/login" >"$work/wrk-login-storm.txt" &
    storm_pid=$!
    sleep 1
    run_wrk "GET /v1/users/me during 16 logins" latchkey 2 64 /v1/users/me -H "Authorization: Bearer $token"
    wait "$storm_pid" || true
    sleep 3  # let the storm's queued logins finish
    printf '%s\t%s\t%s\t%s\n' "POST /v1/auth/login (the storm)" latchkey 16 \
        "$(parse_wrk "$work/wrk-login-storm.txt" | tr ' ' '\t')" >>"$results"

    local login_ms pbkdf2_ms
    read -r login_ms pbkdf2_ms <<<"$(login_against_pbkdf2)"
    accounts_summary+=("login at 1 connection: median ${login_ms} ms; one PBKDF2-HMAC-SHA256 (600,000 iterations), taken in turns: ${pbkdf2_ms} ms; ratio $(awk -v a="$login_ms" -v b="$pbkdf2_ms" 'BEGIN { printf "%.2f", a / b }') (target within 10%: $(awk -v a="$login_ms" -v b="$pbkdf2_ms" 'BEGIN { print (a <= b * 1.1) ? "met" : "NOT met" }'))")

    local known_ms unknown_ms
    read -r known_ms unknown_ms <<<"$(reset_timing)"
    accounts_summary+=("POST /v1/auth/password-reset at 1 connection, median: registered ${known_ms} ms, unknown ${unknown_ms} ms; ratio $(awk -v a="$known_ms" -v b="$unknown_ms" 'BEGIN { printf "%.2f", a / b }') (target within 10%: $(awk -v a="$known_ms" -v b="$unknown_ms" 'BEGIN { r = a / b; print (r >= 0.9 && r <= 1.1) ? "met" : "NOT met" }'))")

    say "logging in $(refresh_sessions 2 64) sessions for the refresh run"
    for index in $(seq 1 "$(refresh_sessions 2 64)"); do
        tokens+=("$(post_json /v1/auth/login "$(login_body)" | json_field refreshToken)")
    done
    run_wrk "POST /v1/auth/refresh" latchkey 2 64 /v1/auth/refresh -s "$(refresh_script 2 "${tokens[@]}")"
}

