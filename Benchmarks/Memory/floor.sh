#!/usr/bin/env bash
# The server's memory floor (issue #50): starts `sesame serve` on a fresh data directory RUNS
# times; for each, the resident memory per kind a second after start (mappings.py), then the
# peak anonymous and file-backed memory under 8 s of `wrk -t1 -c32` on the discovery document.
#
#   bash Benchmarks/Memory/floor.sh [path/to/sesame] [runs]
#
# Defaults: the release build of Benchmarks/ and 3 runs. Needs wrk and python3. The load comes
# from one address, so the server runs with --no-rate-limits and --no-challenges (with them, all
# but the first requests would be cheap 429s); a run that saw any other status than 200 says so.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
sesame="${1:-$here/../.build/release/sesame}"
runs="${2:-3}"
[ -x "$sesame" ] || { echo "no sesame at $sesame: build it in Benchmarks/ (swift build -c release --product sesame)" >&2; exit 1; }
for run in $(seq "$runs"); do
    work="$(mktemp -d)"
    "$sesame" serve --port 0 --data-dir "$work" --no-rate-limits --no-challenges >"$work.out" 2>"$work.log" &
    pid=$!
    for _ in $(seq 100); do grep -q '^Listening: ' "$work.out" 2>/dev/null && break; sleep 0.1; done
    port="$(sed -n 's/^Listening: .*:\([0-9]*\)$/\1/p' "$work.out")"
    sleep 1
    idle="$(python3 "$here/mappings.py" "$pid" --top 0 | head -1)"
    wrk -t1 -c32 -d8s "http://127.0.0.1:$port/.well-known/openid-configuration" >"$work.wrk" &
    load=$!
    peak_anonymous=0
    peak_file=0
    while kill -0 "$load" 2>/dev/null; do
        anonymous="$(awk '/^Anonymous:/ {print $2}' "/proc/$pid/smaps_rollup")"
        resident="$(awk '/^Rss:/ {print $2}' "/proc/$pid/smaps_rollup")"
        [ "$anonymous" -gt "$peak_anonymous" ] && peak_anonymous="$anonymous"
        [ $((resident - anonymous)) -gt "$peak_file" ] && peak_file=$((resident - anonymous))
        sleep 0.05
    done
    rate="$(awk '/Requests\/sec/ {print $2}' "$work.wrk")"
    if grep -q 'Non-2xx' "$work.wrk"; then echo "run $run: $(grep 'Non-2xx' "$work.wrk" | xargs)" >&2; fi
    printf 'run %s: idle %s | discovery (%s req/s): peak anonymous %s MB, peak file-backed %s MB\n' "$run" "$idle" "$rate" \
        "$(python3 -c "print(round($peak_anonymous / 1024, 1))")" "$(python3 -c "print(round($peak_file / 1024, 1))")"
    kill "$pid"
    wait "$pid" 2>/dev/null || true
    rm -rf "$work" "$work.out" "$work.log" "$work.wrk"
done
