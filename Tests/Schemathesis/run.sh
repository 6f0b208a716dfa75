#!/usr/bin/env bash
# Property-based API conformance: schemathesis (pinned, from PyPI, in a venv) generates requests
# from the server's own OpenAPI document (/api/openapi.json) and checks every answer against
# it: no 5xx, documented status codes, content types, headers and bodies, and that invalid input
# is refused. Runs without credentials and with a first-party bearer token; last, over the admin
# API with an operator's token (admin_token.py: a second factor, the sesame-admin-cli client). Then
# extreme_numbers.py sends every documented input (and the OAuth endpoints' numeric parameters,
# numeric headers and the times of presented JWTs) 1e30, -1e300, 2^63, -0, NaN-like strings, …
# After each run the server must still be running and its log free of "Fatal error" (a Swift
# trap): no input may crash the process (issue #28).
#
# Usage: Tests/Schemathesis/run.sh [path-to-sesame-binary]   (default: .build/debug/sesame)
#        Tests/Schemathesis/run.sh --install   (only the venv, e.g. while the server builds)
# Environment: SCHEMATHESIS_EXAMPLES (examples per operation, default 25).
set -euo pipefail
cd "$(dirname "$0")/../.."

SESAME=${1:-.build/debug/sesame}
EXAMPLES=${SCHEMATHESIS_EXAMPLES:-25}
VERSION=4.32.5
VENV=${SCHEMATHESIS_VENV:-.build/schemathesis-venv}

if [ ! -x "$VENV/bin/schemathesis" ] || ! "$VENV/bin/schemathesis" --version | grep -q "$VERSION"; then
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet "schemathesis==$VERSION"
fi
[ "$SESAME" = "--install" ] && exit 0
[ -x "$SESAME" ] || { echo "no sesame binary at $SESAME; run swift build first" >&2; exit 1; }
# Two workers parse source concurrently; see serial_ast.py for the CPython 3.11 bug this avoids.
site=$("$VENV/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
cp Tests/Schemathesis/serial_ast.py "$site/sesame_serial_ast.py"
echo "import sesame_serial_ast" > "$site/sesame_serial_ast.pth"

work=$(mktemp -d)
trap 'kill "${server:-0}" 2>/dev/null || true; rm -rf "$work"' EXIT
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
cat > "$work/seed.yaml" <<SEED
clients:
  - client_id: schemathesis-app
    redirect_uris: [http://127.0.0.1/callback]
    first_party: true
users:
  - username: alice
    email: alice@example.com
    password: "schemathesis passphrase"
    email_verified: true
  - username: olga
    email: olga@example.com
    password: "operator passphrase"
    email_verified: true
SEED
# Rate limits off: thousands of generated requests from one address would otherwise mostly
# meet 429 (documented, so accepted) instead of the endpoints' own answers. Registration open, so
# /register and its client configuration endpoint (RFC 7591, RFC 7592) are in the document.
"$SESAME" serve --data-dir "$work/data" --port "$port" --config "$work/seed.yaml" --log-level error --no-rate-limits --no-challenges \
    --registration open \
    > "$work/server.log" 2>&1 &
server=$!
base="http://127.0.0.1:$port"
for _ in $(seq 1 100); do
    curl -fsS "$base/health" > /dev/null 2>&1 && break
    sleep 0.2
done
curl -fsS "$base/health" > /dev/null || { cat "$work/server.log" >&2; exit 1; }

token=$(python3 Tests/Schemathesis/token.py "$base" schemathesis-app alice "schemathesis passphrase")

run() {
    "$VENV/bin/schemathesis" --config-file Tests/Schemathesis/schemathesis.toml \
        run "$base/api/openapi.json" --url "$base" \
        --max-examples "$EXAMPLES" --seed 1 --workers 2 \
        --suppress-health-check all --request-timeout 20 "$@"
}
# The server must have survived what was just sent: its process alive, no trap in its log.
alive() {
    if ! kill -0 "$server" 2>/dev/null || grep -q 'Fatal error' "$work/server.log"; then
        echo "the server died or trapped during $1:" >&2
        tail -40 "$work/server.log" >&2
        exit 1
    fi
    curl -fsS "$base/health" > /dev/null || { echo "the server stopped answering after $1" >&2; exit 1; }
}
echo "== schemathesis $VERSION, $EXAMPLES examples per operation, without credentials"
run || { alive "schemathesis without credentials"; exit 1; }
alive "schemathesis without credentials"
echo "== with a first-party bearer token"
run -H "Authorization: Bearer $token" || { alive "schemathesis with a bearer token"; exit 1; }
alive "schemathesis with a bearer token"
echo "== extreme numbers (Tests/Schemathesis/extreme_numbers.py)"
python3 Tests/Schemathesis/extreme_numbers.py "$base" "$token" || { alive "extreme numbers"; exit 1; }
alive "extreme numbers"
# Last, as it changes the deployment (clients, users, keys): the admin API as an administrator.
# Ending sessions and retiring keys are left out: the run would end its own token's session or
# key and test only 401s after that (AdminKeyRetirementTests and AdminAPITests cover them).
# (Its own operator: the runs before may have changed alice's account.)
"$SESAME" user role olga admin --data-dir "$work/data" > /dev/null
admin_token=$(python3 Tests/Schemathesis/admin_token.py "$base" schemathesis-app olga "operator passphrase")
echo "== the admin API with an administrator's token"
run -H "Authorization: Bearer $admin_token" --include-path-regex '^/admin/api/' --exclude-path-regex '/sessions|/retire' \
    || { alive "schemathesis over the admin API"; exit 1; }
alive "schemathesis over the admin API"
