#!/usr/bin/env bash
# A throw-away PostgreSQL cluster for the tests: `initdb` + `pg_ctl` under a temp directory, on
# a free loopback port, password authentication (scram-sha-256), no system service.
#
#   eval "$(bash Tests/PostgreSQL/cluster.sh start)"   # exports SESAME_TEST_DATABASE_URL, SESAME_TEST_PGDATA
#   bash Tests/PostgreSQL/cluster.sh stop "$SESAME_TEST_PGDATA"
#   SESAME_PG_DURABLE=1 bash Tests/PostgreSQL/cluster.sh start   # fsync and synchronous commit on
#
# PostgreSQL refuses to run as root; as root the cluster belongs to the `postgres` user that
# Debian's package creates.
set -euo pipefail

bindir=""
for candidate in /usr/lib/postgresql/*/bin; do
    [ -x "$candidate/initdb" ] && bindir="$candidate"
done
[ -n "$bindir" ] || { echo "PostgreSQL is not installed (apt-get install postgresql)" >&2; exit 1; }

as_owner() {
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "${1:-}" in
start)
    # The tests' cluster lives in memory (the tmpfs /dev/shm, where there is one): nothing of it
    # outlives the run, and each sandbox's CREATE and DROP DATABASE makes and deletes hundreds of
    # files, whose inode allocation on ext4 was 5% of the suite's CPU in `perf`. The durable
    # cluster of the benchmarks stays on disk.
    parent=/tmp
    if [ "${SESAME_PG_DURABLE:-}" != 1 ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then parent=/dev/shm; fi
    dir="$(mktemp -d "$parent/sesame-pg.XXXXXX")"
    password="sesame-test-$RANDOM$RANDOM"
    printf '%s\n' "$password" > "$dir/pwfile"
    [ "$(id -u)" = 0 ] && chown -R postgres "$dir"
    port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    as_owner "$bindir/initdb" -D "$dir/data" -U sesame --pwfile="$dir/pwfile" \
        --auth-host=scram-sha-256 --auth-local=trust -E UTF8 --no-locale >"$dir/initdb.log" 2>&1 \
        || { cat "$dir/initdb.log" >&2; exit 1; }
    # The tests trade durability for speed; SESAME_PG_DURABLE=1 keeps PostgreSQL's defaults
    # (fsync, synchronous commit), as the benchmarks and the soak want.
    durability="-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
    [ "${SESAME_PG_DURABLE:-}" = 1 ] && durability=""
    as_owner "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
        -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c max_connections=800 $durability" \
        start >/dev/null || { cat "$dir/server.log" >&2; exit 1; }
    as_owner "$bindir/createdb" -h "$dir" -p "$port" -U sesame sesame
    echo "export SESAME_TEST_DATABASE_URL='postgres://sesame:$password@127.0.0.1:$port/sesame?sslmode=disable&connect_timeout=20'"
    echo "export SESAME_TEST_PGDATA='$dir'"
    ;;
stop)
    dir="${2:?the directory printed by start}"
    as_owner "$bindir/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
    rm -rf "$dir"
    ;;
*)
    echo "usage: $0 start | stop DIR" >&2
    exit 2
    ;;
esac
