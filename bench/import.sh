# latchkey import firebase (sourced by bench/run; uses its helpers and variables): a
# generated Auth export of 100,000 accounts, and one of 20,000, each imported into a fresh
# database; the time and the import's peak memory, which must not grow with the file; then
# the first login of imported accounts against one Firebase scrypt verification plus one
# PBKDF2 at the server's count, timed alone in the same run.

import_summary=()
# The 100,000-account import's peak may exceed the 20,000-account one's by this much.
target_import_growth=1.10
# A first login: at most this times scrypt + PBKDF2 measured alone.
target_first_login_ratio=1.10

bench_firebase_import() {
    say "latchkey import firebase of 100,000 and of 20,000 generated accounts, and first logins of imported accounts"
    timeout 1800 python3 "$root/bench/firebase_import.py" --binary "$binary" --work "$work" >"$work/import.txt" \
        || { cat "$work/import.txt" >&2; fail "import helper failed"; }
    cat "$work/import.txt" >&2
    local value
    value() { awk -F= -v key="$1" '$1 == key { print $2 }' "$work/import.txt"; }
    local growth_met login_met
    growth_met="$(awk -v ratio="$(value peak_growth_ratio)" -v target="$target_import_growth" 'BEGIN { print (ratio != "" && ratio + 0 <= target + 0) ? "met" : "NOT met" }')"
    login_met="$(awk -v ratio="$(value login_ratio)" -v target="$target_first_login_ratio" 'BEGIN { print (ratio != "" && ratio + 0 <= target + 0) ? "met" : "NOT met" }')"
    import_summary+=("target latchkey import firebase: $(value large_imported) accounts ($(value large_file_mb) MB) in $(value large_seconds) s, peak $(value large_peak_mb) MB; $(value small_imported) accounts ($(value small_file_mb) MB) in $(value small_seconds) s, peak $(value small_peak_mb) MB; peak ratio $(value peak_growth_ratio) for 5x the file (at most ${target_import_growth}): $growth_met")
    import_summary+=("target first login of an imported account: median $(value first_login_ms) ms of $(value logins) (max $(value first_login_max_ms) ms) against scrypt $(value scrypt_ms) ms + PBKDF2 at $(value pbkdf2_iterations) iterations $(value pbkdf2_ms) ms alone = $(value reference_ms) ms: ratio $(value login_ratio) (at most ${target_first_login_ratio}): $login_met; later logins $(value later_login_ms) ms")
}
