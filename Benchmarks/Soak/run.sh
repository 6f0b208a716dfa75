#!/usr/bin/env bash
# Soak: `sesame serve` on a throw-away PostgreSQL cluster, 64 connections of mixed load for 10
# minutes (soak.py: refresh rotations, client_credentials, native sign-ins, DPoP-bound
# rotations, pushed requests shown at /authorize, device codes polled; and, outside the fixed
# rate, two connections polling discovery and the JWKS at 250 a second), the database restarted
# (pg_ctl restart -m fast) half-way (RESTARTS=2: at a third and two thirds, so that memory a
# restart leaves behind shows as growth between the middle and last thirds). Every minute it
# samples each server's memory, the rows of the one-time and expiring tables and the database's
# size. Prints the counts and the samples and exits 1 unless there were no 5xx outside the
# restart window, no lost rotations, no reuse-detection failures, no misframed discovery or JWKS
# answer, nothing grew over the last third of the run (issue #50), and each server stopped
# within 20 s of SIGTERM at the end.
#
# Lifetimes are short so that a soak reaches them: refresh tokens live REFRESH_LIFETIME
# seconds (default 300), a browser's pending sign-in SIGN_IN_TIMEOUT (default 300; PAR's
# requests shown at /authorize wait there), device codes 120 s, the audit log is kept AUDIT_RETENTION_DAYS
# (default 0.0035, five minutes) and the purge runs every PURGE_INTERVAL seconds (default 60).
# Once every lifetime has passed, each table holds what its last lifetime created.
#
#   bash Benchmarks/Soak/run.sh                 # 600 s, 64 connections, one server process
#   SECONDS_TOTAL=1800 bash Benchmarks/Soak/run.sh       # issue #50's 30 minutes
#   SECONDS_TOTAL=120 PROCESSES=2 bash Benchmarks/Soak/run.sh
#   SECONDS_TOTAL=1800 RATE=500 bash Benchmarks/Soak/run.sh    # a fixed 500 requests a second
#   SECONDS_TOTAL=1800 RATE=500 RESTARTS=2 bash Benchmarks/Soak/run.sh   # restarts at 10 and 20 min
#
# RATE (requests a second across all connections, split between the processes; default 0, as
# fast as the server answers) keeps the load the same over the whole run, so that the database's
# size can be judged even on a machine with other work (it is judged only when the middle and
# last thirds ran at the same rate).
#
# The load comes from one address (loopback), so the server runs with --no-rate-limits and
# --no-challenges.
#
# Needs the release binary (`swift build -c release --product sesame` in Benchmarks/, or set
# SESAME_BIN), PostgreSQL (Debian's postgresql) and python3. Not part of CI (it takes 10 min).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
sesame="${SESAME_BIN:-$root/Benchmarks/.build/release/sesame}"
[ -x "$sesame" ] || { echo "no release sesame at $sesame: run 'swift build -c release --product sesame' in Benchmarks/ or set SESAME_BIN" >&2; exit 1; }
duration="${SECONDS_TOTAL:-600}"
connections="${CONNECTIONS:-64}"
processes="${PROCESSES:-1}"
rate="${RATE:-0}"
restarts="${RESTARTS:-1}"
USERS=8
refresh_lifetime="${REFRESH_LIFETIME:-300}"
audit_retention="${AUDIT_RETENTION_DAYS:-0.0035}"
purge_interval="${PURGE_INTERVAL:-60}"
sign_in_timeout="${SIGN_IN_TIMEOUT:-300}"
log_level="${LOG_LEVEL:-info}"   # the default: a line per request, as deployed
# After this long, what a request created has expired and been purged: the growth check's window.
lifetime="$(python3 -c "print(int(max($refresh_lifetime, $sign_in_timeout, 120, $audit_retention * 86400) + $purge_interval))")"

eval "$(SESAME_PG_DURABLE=1 bash "$root/Tests/PostgreSQL/cluster.sh" start)"
work="$(mktemp -d /tmp/sesame-soak.XXXXXX)"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    bash "$root/Tests/PostgreSQL/cluster.sh" stop "$SESAME_TEST_PGDATA"
    rm -rf "$work"
}
trap cleanup EXIT

bindir="$(ls -d /usr/lib/postgresql/*/bin | tail -1)"
as_owner() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
export SESAME_DATABASE_URL="$SESAME_TEST_DATABASE_URL"
password="soak-password-$RANDOM$RANDOM"
mkdir -m 700 -p "$work/data"
cat > "$work/seed.json" <<SEED
{"clients": [
  {"client_id": "soak-app", "redirect_uris": ["com.example.soak:/cb"], "first_party": true,
   "refresh_token_lifetime": $refresh_lifetime},
  {"client_id": "soak-dpop", "redirect_uris": ["com.example.soak:/cb"], "first_party": true,
   "dpop_bound_access_tokens": true, "refresh_token_lifetime": $refresh_lifetime},
  {"client_id": "soak-tv", "grant_types": ["urn:ietf:params:oauth:grant-type:device_code"], "scopes": ["openid"],
   "device_code_lifetime": 120, "device_poll_interval": 1}
]}
SEED
secret="$("$sesame" client add soak-backend --confidential --grant client_credentials --scope api \
    --data-dir "$work/data" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["client_secret"])')"
# Several users, so that concurrent sign-ins of one account stay below the login throttle's
# in-flight limit (it admits no more parallel attempts than the failures a name has left).
for index in $(seq 0 $((USERS - 1))); do
    printf '%s\n' "$password" | "$sesame" user add "soak-$index" --email "soak-$index@example.com" \
        --password-stdin --data-dir "$work/data" >/dev/null
done

ports=()
for index in $(seq 1 "$processes"); do
    "$sesame" serve --port 0 --data-dir "$work/data" --config "$work/seed.json" --log-level "$log_level" --database-pool-size 16 \
        --no-rate-limits --no-challenges --purge-interval "$purge_interval" --audit-retention "$audit_retention" \
        --sign-in-timeout "$sign_in_timeout" \
        >"$work/serve-$index.out" 2>"$work/serve-$index.err" &
    pids+=($!)
    for _ in $(seq 1 100); do grep -q '^Listening: ' "$work/serve-$index.out" 2>/dev/null && break; sleep 0.1; done
    ports+=("$(sed -n 's/^Listening: .*:\([0-9]*\)$/\1/p' "$work/serve-$index.out")")
done
echo "sesame serve x$processes on ports ${ports[*]}, PostgreSQL at ${SESAME_TEST_DATABASE_URL##*@}; $duration s, $connections connections" >&2

restart="$(printf '%q ' as_owner "$bindir/pg_ctl" -D "$SESAME_TEST_PGDATA/data" -m fast -w restart -l "$SESAME_TEST_PGDATA/server.log")"
export -f as_owner
status=0
per=$((connections / processes))
soak_pids=()
for index in "${!ports[@]}"; do
    restart_command=""
    observe=()
    if [ "$index" = 0 ]; then
        restart_command="bash -c '$(declare -f as_owner); $restart >/dev/null'"
        observe=(--observe-pids "${pids[@]}" --database-url "$SESAME_TEST_DATABASE_URL" --lifetime "$lifetime"
                 --observe-every "${OBSERVE_EVERY:-30}")
    fi
    python3 "$here/soak.py" --port "${ports[$index]}" --seconds "$duration" --connections "$per" \
        --secret="$secret" --password="$password" --users "$USERS" --restart-command "$restart_command" --restarts "$restarts" \
        --rate "$(python3 -c "print($rate / $processes)")" "${observe[@]}" > "$work/soak-$index.json" &
    soak_pids+=($!)
done
for pid in "${soak_pids[@]}"; do wait "$pid" || status=1; done
# A graceful stop must end: a request the server cannot finish would hold it (issue #50's soak
# found one after the database restart). SIGTERM, then at most 20 s.
for index in "${!pids[@]}"; do
    pid="${pids[$index]}"
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 200); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$pid" 2>/dev/null; then
        echo "FAILED: sesame serve (pid $pid) did not stop within 20 s of SIGTERM; the end of its log:" >&2
        tail -n 40 "$work/serve-$((index + 1)).err" >&2
        kill -9 "$pid" 2>/dev/null || true
        status=1
    fi
done
for index in "${!ports[@]}"; do echo "server $((index + 1)):"; cat "$work/soak-$index.json"; done
grep -h -iE 'panic|fatal|crash' "$work"/serve-*.err || true
exit $status
