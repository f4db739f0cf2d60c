# Mail backlog for bench/run (sourced; uses its helpers and variables): 1,000 password
# resets against a real SMTP server on loopback (aiosmtpd, Tests/Tools/mail_sink.py), all
# delivered exactly once; the time taken and the messages per second. A second latchkey,
# with cheap password hashes (1,000 sign-ups are not what is measured), serves it.

mail_count="${BENCH_MAIL_COUNT:-1000}"
sink_pid=""
mail_latchkey_pid=""
mail_summary=""

bench_mail_backlog() {
    "$root/scripts/install-test-deps" >&2  # the venv with aiosmtpd
    local sink_dir="$work/mail-sink" port_file="$work/mail-sink.port" port smtp_port
    "$root/.venv/bin/python" "$root/Tests/Tools/mail_sink.py" --dir "$sink_dir/messages" --port-file "$port_file" \
        >"$work/mail-sink.log" 2>&1 &
    sink_pid=$!
    for ((tries = 0; tries < 200; tries++)); do
        [[ -s "$port_file" ]] && break
        sleep 0.1
    done
    [[ -s "$port_file" ]] || fail "the mail sink did not start: $(cat "$work/mail-sink.log")"
    smtp_port="$(cat "$port_file")"

    port="$(free_port)"
    mkdir -p "$work/mail-data"
    LATCHKEY_RATE_LIMITS_ENABLED=false LATCHKEY_PASSWORD_ITERATIONS=1000 \
        "$binary" serve --host 127.0.0.1 --port "$port" --data-dir "$work/mail-data" --smtp-url "smtp://127.0.0.1:$smtp_port" \
        >"$work/mail-latchkey.log" 2>&1 &
    mail_latchkey_pid=$!
    wait_until_healthy "$mail_latchkey_pid" "$port" "latchkey (mail)" "$work/mail-latchkey.log"
    say "mail backlog: $mail_count accounts ask for a reset, aiosmtpd on 127.0.0.1:$smtp_port receives"
    python3 "$root/bench/mail_backlog.py" --port "$port" --sink-dir "$sink_dir/messages" --count "$mail_count" >"$work/mail-backlog.txt"
    stop_process "$mail_latchkey_pid" "latchkey (mail)"
    mail_latchkey_pid=""
    stop_process "$sink_pid" "mail sink"
    sink_pid=""

    local value
    value() { awk -F= -v key="$1" '$1 == key { print $2 }' "$work/mail-backlog.txt"; }
    local verdict="NOT met"
    [[ "$(value delivered)" == "$mail_count" && "$(value duplicates)" == 0 && "$(value missing)" == 0 ]] && verdict="met"
    mail_summary="mail backlog: $(value delivered)/$mail_count resets delivered over SMTP in $(value seconds) s ($(value per_second) messages/s; the requests took $(value requested_s) s), $(value duplicates) sent twice, $(value missing) missing (target all exactly once: $verdict)"
    say "$mail_summary"
}
