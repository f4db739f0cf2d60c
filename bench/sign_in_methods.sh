# Passkeys and the second factor for bench/run (sourced; uses its helpers and variables):
# passkey sign-ins (options, then the assertion: two round trips, a P-256 signature of
# the client's own) at 1 connection, the median time of one, and at 64 connections,
# sign-ins per second, from a native client (bench/PasskeyLoad: a Python one took more
# CPU per sign-in than the server); and what one TOTP check costs beside one password
# hash, in-process (bench/Microbench).

sign_in_methods_summary=()
target_passkey_median_ms=2
target_passkey_signins_per_second=5000
target_totp_to_hash=0.01

bench_sign_in_methods() {
    local scratch=()
    [[ -n "${BENCH_SCRATCH:-}" ]] && scratch=(--scratch-path "$BENCH_SCRATCH")
    # Built as latchkey is (static runtime), so they share one build.
    (cd "$root" && swift build -c release --static-swift-stdlib --product latchkey-passkey-load "${scratch[@]}" \
        && swift build -c release --static-swift-stdlib --product latchkey-microbench "${scratch[@]}") >&2
    local bin origin="http://127.0.0.1:$latchkey_port"
    bin="$(cd "$root" && swift build -c release --static-swift-stdlib --show-bin-path "${scratch[@]}")"
    say "passkey sign-ins at 1 connection, then at 64"
    "$bin/latchkey-passkey-load" --port "$latchkey_port" --origin "$origin" --connections 1 --seconds "$duration" >"$work/passkeys-1.txt"
    "$bin/latchkey-passkey-load" --port "$latchkey_port" --origin "$origin" --connections 64 --seconds "$duration" >"$work/passkeys-64.txt"
    local median rate errors
    median="$(awk -F= '$1 == "median_ms" { print $2 }' "$work/passkeys-1.txt")"
    rate="$(awk -F= '$1 == "signins_per_second" { print $2 }' "$work/passkeys-64.txt")"
    errors="$(cat "$work/passkeys-1.txt" "$work/passkeys-64.txt" | awk -F= '$1 == "errors" { sum += $2 } END { print sum + 0 }')"
    ((errors == 0)) || say "passkey sign-ins refused: $(grep -h first_error "$work"/passkeys-*.txt | head -n 1)"
    sign_in_methods_summary+=("target passkey sign-in at 1 connection (options and assertion): median ${median:-n/a} ms (under ${target_passkey_median_ms} ms): $(verdict "$median" "$target_passkey_median_ms")")
    sign_in_methods_summary+=("target passkey sign-ins at 64 connections: ${rate:-n/a}/s (at least ${target_passkey_signins_per_second}), ${errors} refused: $(awk -v r="${rate:-0}" -v t="$target_passkey_signins_per_second" -v e="$errors" 'BEGIN { print (r >= t && e == 0) ? "met" : "NOT met" }')")

    say "one TOTP check beside one password hash (bench/Microbench)"
    "$bin/latchkey-microbench" >"$work/microbench.txt"
    local check hash ratio
    check="$(awk -F= '$1 == "totp_check_us" { print $2 }' "$work/microbench.txt")"
    hash="$(awk -F= '$1 == "password_hash_ms" { print $2 }' "$work/microbench.txt")"
    ratio="$(awk -F= '$1 == "check_to_hash" { print $2 }' "$work/microbench.txt")"
    sign_in_methods_summary+=("target one TOTP check (open the sealed secret, three steps): ${check:-n/a} us against one password hash ${hash:-n/a} ms = ${ratio:-n/a} (at most ${target_totp_to_hash}): $(verdict "$ratio" "$target_totp_to_hash")")
}
