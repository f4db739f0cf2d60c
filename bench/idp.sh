# Identity-token sign-in against refresh (sourced by bench/run; uses its helpers and
# variables): a fake Google (Tests/Tools/fake_idp.py, the tests' fake) over HTTPS with a
# certificate this bench makes, and a latchkey of this build configured for it through the
# settings a user sets (googleClientIDs, googleIssuer, outboundCAFile). Tokens are minted
# before the runs, one per connection, valid an hour, and signed in once each so the
# accounts exist and the provider's keys are cached: what is measured is a returning user's
# sign-in (one RS256 signature checked, as Google's and Apple's ID tokens are signed, with
# the fake's 2048-bit key; one session written). POST /v1/auth/idp/google and
# POST /v1/auth/refresh take turns at 64 connections (idp, refresh, refresh, idp; then
# refresh, idp, idp, refresh); each refresh turn follows fresh token chains, one per
# connection, from provider sign-ins. Target: identity-token sign-in at least 0.5 x refresh
# (requests/s summed over the turns). The fake's Python comes from scripts/install-test-deps.

idp_summary=()
idp_port=""
idp_fake_pid=""
idp_latchkey_pid=""
target_idp_refresh_ratio=0.5
idp_client_id="bench-app.apps.googleusercontent.com"

# The fake provider: its HTTPS certificate (its own CA, as outboundCAFile), then the script.
start_fake_google() {  # dir -> sets idp_control_port idp_google_issuer
    local dir="$1" tries python="$root/.venv/bin/python"
    if [[ ! -x "$python" ]] || ! "$python" -c 'import jwt, cryptography' 2>/dev/null; then
        say "making the test tools' Python venv (scripts/install-test-deps)"
        (cd "$root" && scripts/install-test-deps) >&2
    fi
    mkdir -p "$dir"
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$dir/key.pem" -out "$dir/cert.pem" \
        -days 2 -subj "/CN=Latchkey bench provider" -addext "subjectAltName=IP:127.0.0.1" 2>/dev/null \
        || fail "openssl could not make the fake provider's certificate"
    rm -f "$dir/port"
    "$python" "$root/Tests/Tools/fake_idp.py" --port-file "$dir/port" --cert "$dir/cert.pem" --key "$dir/key.pem" \
        >"$dir/stdout.log" 2>"$dir/stderr.log" &
    idp_fake_pid=$!
    for ((tries = 0; tries < 200; tries++)); do
        [[ -s "$dir/port" ]] && break
        kill -0 "$idp_fake_pid" 2>/dev/null || { cat "$dir/stderr.log" >&2; fail "the fake provider exited during start-up"; }
        sleep 0.1
    done
    [[ -s "$dir/port" ]] || fail "the fake provider did not start within 20 s"
    idp_control_port="$(cat "$dir/port")"
    idp_google_issuer="$(python3 - "$idp_control_port" <<'EOF_PY'
import json, sys, urllib.request
with urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/info", timeout=10) as response:
    print(json.load(response)["google"])
EOF_PY
)"
}

# COUNT Google ID tokens from the fake, for subjects PREFIX-0 … PREFIX-(COUNT-1), valid an hour.
mint_google_tokens() {  # count prefix
    python3 - "$idp_control_port" "$idp_google_issuer" "$idp_client_id" "$1" "$2" <<'EOF_PY'
import json, sys, time, urllib.request
port, issuer, client_id, count, prefix = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
now = int(time.time())
for index in range(count):
    subject = f"{prefix}-{index}"
    claims = {"iss": issuer, "aud": client_id, "sub": subject, "iat": now, "exp": now + 3600,
              "email": f"{subject}@bench.example.com", "email_verified": True}
    body = json.dumps({"provider": "google", "claims": claims, "alg": "RS256"}).encode()
    request = urllib.request.Request(f"http://127.0.0.1:{port}/mint", data=body, method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        print(json.load(response)["token"])
EOF_PY
}

# Signs each token in once, 4 at a time; prints the refresh token of each sign-in.
idp_sign_in_all() {  # token...
    python3 - "$idp_port" "$@" <<'EOF_PY'
import concurrent.futures, json, sys, urllib.request
port, tokens = sys.argv[1], sys.argv[2:]
def sign_in(token):
    request = urllib.request.Request(f"http://127.0.0.1:{port}/v1/auth/idp/google", data=json.dumps({"idToken": token}).encode(),
                                     method="POST", headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.load(response)["refreshToken"]
with concurrent.futures.ThreadPoolExecutor(4) as pool:
    for refresh in pool.map(sign_in, tokens):
        print(refresh)
EOF_PY
}

# A wrk script posting the tokens to POST /v1/auth/idp/google: each thread takes every
# THREADS-th token from its index (token_script_head) and its connections go round them.
idp_sign_in_script() {  # threads token...
    local script="$work/idp-$RANDOM.lua" threads="$1"
    shift
    {
        token_script_head "$threads" "$@"
        cat <<'EOF_LUA'
-- Each token's request is made once, here, not per request (the script's time is the
-- server's machine's too).
local requests, at = {}, 1
function init(args)
    for i = index, #tokens, threads do
        requests[#requests + 1] = wrk.format("POST", "/v1/auth/idp/google", { ["Content-Type"] = "application/json" },
            '{"idToken":"' .. tokens[i] .. '"}')
    end
end
function request()
    local made = requests[at]
    at = at % #requests + 1
    return made
end
EOF_LUA
    } >"$script"
    echo "$script"
}

idp_round() {  # round
    if (($1 % 2)); then echo idp refresh refresh idp; else echo refresh idp idp refresh; fi
}

bench_idp() {
    local dir="$work/idp" tokens=() chains=() round side sign_in_script line turn=0
    start_fake_google "$dir/provider"
    idp_port="$(free_port)"
    mkdir -p "$dir/data"
    LATCHKEY_MAX_CONNECTIONS="$max_connections" LATCHKEY_MAX_CONNECTIONS_PER_ADDRESS="$max_connections" \
    LATCHKEY_RATE_LIMITS_ENABLED=false \
        "$binary" serve --host 127.0.0.1 --port "$idp_port" --data-dir "$dir/data" \
        --google-client-ids "$idp_client_id" --google-issuer "$idp_google_issuer" --outbound-ca-file "$dir/provider/cert.pem" \
        >"$dir/latchkey.log" 2>&1 &
    idp_latchkey_pid=$!
    wait_until_healthy "$idp_latchkey_pid" "$idp_port" "latchkey (idp)" "$dir/latchkey.log"
    mapfile -t tokens < <(mint_google_tokens 64 bench-user)
    ((${#tokens[@]} == 64)) || fail "only ${#tokens[@]} tokens minted"
    # The accounts exist and the provider's keys are cached before anything is measured.
    idp_sign_in_all "${tokens[@]}" >/dev/null || fail "the bench's provider sign-ins were refused; see $dir/latchkey.log"
    sign_in_script="$(idp_sign_in_script 2 "${tokens[@]}")"
    for round in 1 2; do
        for side in $(idp_round "$round"); do
            if [[ $side == idp ]]; then
                run_wrk "POST /v1/auth/idp/google (vs refresh)" latchkey_idp 2 64 /v1/auth/idp/google -s "$sign_in_script"
            else
                # Fresh chains each turn: a rotation in flight when wrk stopped would make
                # the next turn's first refresh a reuse.
                turn=$((turn + 1))
                mapfile -t chains < <(idp_sign_in_all $(mint_google_tokens "$(refresh_sessions 2 64)" "bench-chain-$turn"))
                ((${#chains[@]} == $(refresh_sessions 2 64))) || fail "only ${#chains[@]} sessions for a refresh turn"
                run_wrk "POST /v1/auth/refresh (vs idp)" latchkey_idp 2 64 /v1/auth/refresh -s "$(refresh_script 2 "${chains[@]}")"
            fi
        done
    done
    stop_process "$idp_latchkey_pid" "latchkey (idp)"
    idp_latchkey_pid=""
    stop_process "$idp_fake_pid" "fake provider"
    idp_fake_pid=""
    line="$(awk -F'\t' '
        $1 == "POST /v1/auth/idp/google (vs refresh)" { i += $4; turns = turns sprintf(" idp %.0f", $4) }
        $1 == "POST /v1/auth/refresh (vs idp)" { r += $4; turns = turns sprintf(" refresh %.0f", $4) }
        END { if (i > 0 && r > 0) printf "%.0f %.0f %.3f%s", i, r, i / r, turns }
    ' "$results")"
    if [[ -z "$line" ]]; then
        idp_summary+=("target POST /v1/auth/idp/google against POST /v1/auth/refresh: not measured")
        return
    fi
    local signins refreshes ratio turns
    read -r signins refreshes ratio turns <<<"$line"
    idp_summary+=("target identity-token sign-in (POST /v1/auth/idp/google, keys cached) at 64 connections to POST /v1/auth/refresh (summed over 8 turns, ABBA then BAAB): ${signins} to ${refreshes} req/s, ratio ${ratio} (at least ${target_idp_refresh_ratio}: $(awk -v r="$ratio" -v t="$target_idp_refresh_ratio" 'BEGIN { print (r >= t) ? "met" : "NOT met" }'))")
    idp_summary+=("  the turns in order, req/s:${turns}")
}
