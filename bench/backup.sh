# latchkey backup under load (sourced by bench/run; uses its helpers and variables): a
# database of 100,000 users copied while a server over it takes about 1,000 durable writes
# per second; the copy must be whole and no write may fail.

backup_summary=()

bench_backup_under_writes() {
    say "latchkey backup of 100,000 users while the server takes 1,000 writes per second"
    timeout 600 python3 "$root/bench/backup_under_writes.py" --binary "$binary" --work "$work" >"$work/backup.txt" \
        || { cat "$work/backup.txt" >&2; fail "backup helper failed"; }
    cat "$work/backup.txt" >&2
    local value
    value() { awk -F= -v key="$1" '$1 == key { print $2 }' "$work/backup.txt"; }
    local met="NOT met"
    if [ "$(value backup_status)" = 0 ] && [ "$(value backup_integrity)" = ok ] && [ "$(value backup_foreign_key_problems)" = 0 ] \
        && [ "$(value write_errors)" = 0 ] && [ "$(value backup_users)" -ge 100020 ]; then
        met="met"
    fi
    backup_summary+=("target latchkey backup of $(value backup_users) users in $(value backup_seconds) s while the server took $(value writes_per_second) writes/s: integrity $(value backup_integrity), $(value backup_foreign_key_problems) foreign-key problems, $(value write_errors) failed writes of $(value writes_total): $met")
}
