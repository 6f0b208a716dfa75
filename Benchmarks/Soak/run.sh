#!/usr/bin/env bash
# Soak: `sesame serve` on a throw-away PostgreSQL cluster, 64 connections of mixed grants for
# 10 minutes (soak.py), the database restarted (pg_ctl restart -m fast) half-way. Prints the
# counts and exits 1 unless there were no 5xx outside the restart window, no lost rotations
# and no reuse-detection failures.
#
#   bash Benchmarks/Soak/run.sh                 # 600 s, 64 connections, one server process
#   SECONDS_TOTAL=120 PROCESSES=2 bash Benchmarks/Soak/run.sh
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
USERS=8

eval "$(SESAME_PG_DURABLE=1 bash "$root/Tests/PostgreSQL/cluster.sh" start)"
work="$(mktemp -d /tmp/sesame-soak.XXXXXX)"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    bash "$root/Tests/PostgreSQL/cluster.sh" stop "$SESAME_TEST_PGDATA"
    rm -rf "$work"
}
trap cleanup EXIT

bindir="$(ls -d /usr/lib/postgresql/*/bin | tail -1)"
as_owner() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
export SESAME_DATABASE_URL="$SESAME_TEST_DATABASE_URL"
password="soak-password-$RANDOM$RANDOM"
"$sesame" client add soak-app --redirect-uri com.example.soak:/cb --first-party --data-dir "$work/data" >/dev/null
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
    "$sesame" serve --port 0 --data-dir "$work/data" --log-level error --database-pool-size 16 --no-rate-limits --no-challenges >"$work/serve-$index.out" 2>"$work/serve-$index.err" &
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
    [ "$index" = 0 ] && restart_command="bash -c '$(declare -f as_owner); $restart >/dev/null'"
    python3 "$here/soak.py" --port "${ports[$index]}" --seconds "$duration" --connections "$per" \
        --secret="$secret" --password="$password" --users "$USERS" --restart-command "$restart_command" > "$work/soak-$index.json" &
    soak_pids+=($!)
done
for pid in "${soak_pids[@]}"; do wait "$pid" || status=1; done
for index in "${!ports[@]}"; do echo "server $((index + 1)):"; cat "$work/soak-$index.json"; done
grep -h -iE 'panic|fatal|crash' "$work"/serve-*.err || true
exit $status
