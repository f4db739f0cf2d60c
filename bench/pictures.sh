# Profile pictures for bench/run (sourced; uses its helpers and variables): a 200 KB PNG
# uploaded to latchkey and the same file served by nginx at the same path, fetched by both
# at every load in BENCH_LOADS; then 16 concurrent uploads of a 5 MB picture while
# latchkey's memory is watched.

picture_summary=""
upload_summary=""
target_upload_growth_mb=40

# A real, decodable PNG of random pixels, SIDE x SIDE (256: about 197 KB; 1300: about
# 5.07 MB, under the 5 MiB maxPictureBytes; noise does not compress), made with the
# standard library only.
make_bench_picture() {  # out [side]
    python3 - "$1" "${2:-256}" <<'EOF_PY'
import os, struct, sys, zlib
width = height = int(sys.argv[2])
def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
rows = b"".join(b"\x00" + os.urandom(width * 3) for _ in range(height))
png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)) \
    + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")
open(sys.argv[1], "wb").write(png)
EOF_PY
}

bench_pictures() {
    local picture="$work/picture.png" signup token url path
    make_bench_picture "$picture"
    signup="$(post_json /v1/auth/signup '{"email":"pictures@example.com","password":"correct horse battery staple","displayName":"bench_pictures"}')"
    token="$(json_field accessToken <<<"$signup")"
    url="$(python3 - "$latchkey_port" "$token" "$picture" <<'EOF_PY'
import json, sys, urllib.request
port, token, path = sys.argv[1], sys.argv[2], sys.argv[3]
request = urllib.request.Request(f"http://127.0.0.1:{port}/v1/users/me/photo", data=open(path, "rb").read(), method="PUT",
                                 headers={"Content-Type": "image/png", "Authorization": f"Bearer {token}"})
with urllib.request.urlopen(request, timeout=30) as response:
    print(json.load(response)["photoURL"])
EOF_PY
)"
    path="/files/${url#*/files/}"
    # nginx serves the very same bytes from the same path.
    mkdir -p "$work/nginx/www$(dirname "$path")"
    cp "$picture" "$work/nginx/www$path"
    cmp -s <(curl -s "http://127.0.0.1:$latchkey_port$path") "$picture" || fail "latchkey does not serve the uploaded picture byte for byte"
    cmp -s <(curl -s "http://127.0.0.1:$nginx_port$path") "$picture" || fail "nginx does not serve the bench picture"
    say "GET of a $(stat -c %s "$picture")-byte picture at $path"
    nginx_turns "GET /files (200 KB picture)" "$path" "$path"

    local large="$work/large.png"
    make_bench_picture "$large" 1300
    say "16 concurrent uploads of a $(stat -c %s "$large")-byte picture, 64 KiB every 5 ms each"
    timeout 180 python3 "$root/bench/uploads.py" --port "$latchkey_port" --pid "$latchkey_pid" --token "$token" \
        --picture "$large" --clients 16 >"$work/uploads.txt"
    local growth ok
    growth="$(awk -F= '$1 == "growth_mb" { print $2 }' "$work/uploads.txt")"
    ok="$(awk -F= '$1 == "ok" { print $2 }' "$work/uploads.txt")"
    [[ "$ok" == 16 ]] || fail "not every upload succeeded: $(cat "$work/uploads.txt")"
    upload_summary="target 16 concurrent 5 MB uploads: latchkey grew by ${growth} MB while they ran ($(awk -F= '$1 == "rss_before_mb" { print $2 }' "$work/uploads.txt") MB before, $(awk -F= '$1 == "seconds" { print $2 }' "$work/uploads.txt") s) (under ${target_upload_growth_mb} MB): $(verdict "$growth" "$target_upload_growth_mb")"
}

# The issue's target: latchkey at least half of nginx serving the same file, 64 connections,
# from turns (bench/against_nginx.sh).
pictures_target() {
    nginx_turns_target "GET /files (200 KB picture)" "$target_picture_ratio" "GET of a 200 KB picture at 64 connections, to nginx serving the same file"
    echo "$upload_summary"
}
