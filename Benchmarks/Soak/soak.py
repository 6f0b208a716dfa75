#!/usr/bin/env python3
"""Soak load for a running Sesame server: many keep-alive connections of mixed grants for a
fixed time, with the database restarted in the middle, counting what must stay zero.

Workers (each on its own HTTP/1.1 keep-alive connection):
  refresh   holds one refresh-token family and rotates it in a loop (RFC 6749 §6, RFC 9700
            §4.14.2); every `--probe-every` rotations it replays the token it rotated last and
            checks that the replay is refused AND that the family's current token is then refused
            too (reuse detection revoked the family); then it signs in again for a new family.
  client    client_credentials grant (RFC 6749 §4.4).
  signin    native sign-in (/authorize-challenge) and the code exchange.

Counted (and printed at the end; exit status 1 unless all zero):
  5xx outside the restart window   any 5xx or connection error outside [restart start, restart end + grace]
  lost rotations                   a refresh token the server handed out (200) later refused although no
                                   request with it was cut off
  reuse-detection failures         a replayed token accepted, or the family's current token still working
                                   after the replay
Only the Python standard library; run by run.sh.
"""
import argparse, base64, hashlib, http.client, json, os, secrets, subprocess, sys, threading, time, urllib.parse

class Counters:
    def __init__(self):
        self.lock = threading.Lock()
        self.values = {}
    def add(self, name, n=1):
        with self.lock:
            self.values[name] = self.values.get(name, 0) + n
    def get(self, name):
        with self.lock:
            return self.values.get(name, 0)

class Window:
    """The restart window: [start, end + grace]."""
    def __init__(self, grace):
        self.start = None
        self.end = None
        self.grace = grace
    def contains(self, t):
        if self.start is None or t < self.start:
            return False
        return self.end is None or t <= self.end + self.grace

class Client:
    def __init__(self, host, port):
        self.host, self.port = host, port
        self.connection = None
    def post(self, path, form, headers=None):
        body = urllib.parse.urlencode(form)
        all_headers = {"Content-Type": "application/x-www-form-urlencoded"}
        all_headers.update(headers or {})
        for attempt in range(2):
            try:
                if self.connection is None:
                    self.connection = http.client.HTTPConnection(self.host, self.port, timeout=30)
                self.connection.request("POST", path, body, all_headers)
                response = self.connection.getresponse()
                data = response.read()
                if response.getheader("Connection", "").lower() == "close":
                    self.connection.close()
                    self.connection = None
                return response.status, data
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError) as error:
                # A keep-alive connection the server closed while idle: only a request that was
                # never sent may be retried; RemoteDisconnected after a send is reported.
                self.connection = None
                if attempt == 1 or not isinstance(error, BrokenPipeError):
                    raise
        raise RuntimeError("unreachable")

def pkce():
    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    return verifier, challenge

def sign_in(client, args, user):
    verifier, challenge = pkce()
    status, body = client.post("/authorize-challenge", {
        "client_id": args.public_client, "scope": "openid offline_access", "code_challenge": challenge,
        "code_challenge_method": "S256", "username": f"soak-{user}", "password": args.password})
    if status != 200:
        return status, None
    code = json.loads(body)["authorization_code"]
    status, body = client.post("/token", {
        "grant_type": "authorization_code", "code": code, "client_id": args.public_client, "code_verifier": verifier})
    if status != 200:
        return status, None
    return status, json.loads(body).get("refresh_token")

def refresh(client, args, token):
    return client.post("/token", {"grant_type": "refresh_token", "refresh_token": token, "client_id": args.public_client})

def record_failure(counters, window, status, what):
    now = time.monotonic()
    if window.contains(now):
        counters.add("errors inside the restart window")
    else:
        counters.add("5xx outside the restart window")
        print(f"{time.strftime('%H:%M:%S')} {what}: {status} outside the restart window", file=sys.stderr, flush=True)

def refresh_worker(args, deadline, counters, window, user):
    client = Client(args.host, args.port)
    token, previous, in_doubt, rotations = None, None, False, 0
    while time.monotonic() < deadline:
        try:
            if token is None:
                status, token = sign_in(client, args, user)
                if token is None:
                    if status >= 500: record_failure(counters, window, status, "sign-in")
                    else: counters.add(f"sign-in refused ({status})"); time.sleep(0.5)
                    continue
                previous, in_doubt, rotations = None, False, 0
            if previous is not None and rotations % args.probe_every == 0:
                # Reuse probe: replay the rotated token, then the current one must be dead.
                status, _ = refresh(client, args, previous)
                if status >= 500:
                    record_failure(counters, window, status, "replay probe"); continue
                if status == 200:
                    counters.add("reuse-detection failures"); print("replayed token accepted", file=sys.stderr, flush=True)
                status, _ = refresh(client, args, token)
                if status >= 500:
                    record_failure(counters, window, status, "after replay"); token = None; continue
                if status == 200:
                    counters.add("reuse-detection failures"); print("family survived a replay", file=sys.stderr, flush=True)
                counters.add("reuse probes")
                token = None
                continue
            status, body = refresh(client, args, token)
        except (OSError, http.client.HTTPException) as error:
            record_failure(counters, window, type(error).__name__, "refresh")
            in_doubt = True
            time.sleep(0.05)
            continue
        if status == 200:
            previous, token = token, json.loads(body)["refresh_token"]
            in_doubt, rotations = False, rotations + 1
            counters.add("rotations")
        elif status >= 500:
            record_failure(counters, window, status, "refresh")
            in_doubt = True  # the rotation may or may not have committed
            time.sleep(0.05)
        elif in_doubt:
            counters.add("families revoked after an interrupted rotation")
            token = None
        else:
            counters.add("lost rotations")
            print(f"lost rotation: {status} {body[:200]!r}", file=sys.stderr, flush=True)
            token = None

def client_worker(args, deadline, counters, window, user):
    client = Client(args.host, args.port)
    basic = base64.b64encode(f"{args.confidential_client}:{args.secret}".encode()).decode()
    while time.monotonic() < deadline:
        try:
            status, _ = client.post("/token", {"grant_type": "client_credentials", "scope": "api"},
                                    {"Authorization": "Basic " + basic})
        except (OSError, http.client.HTTPException) as error:
            record_failure(counters, window, type(error).__name__, "client_credentials"); time.sleep(0.05); continue
        if status == 200: counters.add("client_credentials")
        elif status >= 500: record_failure(counters, window, status, "client_credentials"); time.sleep(0.05)
        else: counters.add("client_credentials refused")

def signin_worker(args, deadline, counters, window, user):
    client = Client(args.host, args.port)
    while time.monotonic() < deadline:
        try:
            status, token = sign_in(client, args, user)
        except (OSError, http.client.HTTPException) as error:
            record_failure(counters, window, type(error).__name__, "sign-in"); time.sleep(0.05); continue
        if token: counters.add("sign-ins")
        elif status >= 500: record_failure(counters, window, status, "sign-in"); time.sleep(0.05)
        else: counters.add(f"sign-in refused ({status})"); time.sleep(0.5)

def restarter(args, start_at, window):
    time.sleep(max(0, start_at - time.monotonic()))
    window.start = time.monotonic()
    print(f"{time.strftime('%H:%M:%S')} restarting the database: {args.restart_command}", file=sys.stderr, flush=True)
    subprocess.run(args.restart_command, shell=True, check=False)
    window.end = time.monotonic()
    print(f"{time.strftime('%H:%M:%S')} database back after {window.end - window.start:.1f} s", file=sys.stderr, flush=True)

def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--host", default="127.0.0.1"); parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--seconds", type=int, default=600); parser.add_argument("--connections", type=int, default=64)
    parser.add_argument("--public-client", default="soak-app"); parser.add_argument("--confidential-client", default="soak-backend")
    parser.add_argument("--secret", required=True); parser.add_argument("--users", type=int, default=8)
    parser.add_argument("--password", required=True); parser.add_argument("--probe-every", type=int, default=200)
    parser.add_argument("--restart-command", default=""); parser.add_argument("--grace", type=float, default=15.0)
    args = parser.parse_args()

    counters, window = Counters(), Window(args.grace)
    start = time.monotonic()
    deadline = start + args.seconds
    shares = [(refresh_worker, args.connections * 5 // 8), (client_worker, args.connections // 4)]
    shares.append((signin_worker, args.connections - sum(n for _, n in shares)))
    workers = [worker for worker, n in shares for _ in range(n)]
    threads = [threading.Thread(target=worker, args=(args, deadline, counters, window, index % args.users), daemon=True)
               for index, worker in enumerate(workers)]
    if args.restart_command:
        threads.append(threading.Thread(target=restarter, args=(args, start + args.seconds / 2, window), daemon=True))
    for thread in threads: thread.start()
    while time.monotonic() < deadline:
        time.sleep(min(30, max(0.1, deadline - time.monotonic())))
        print(f"{time.strftime('%H:%M:%S')} {int(time.monotonic() - start)} s: " +
              ", ".join(f"{k} {v}" for k, v in sorted(counters.values.items())), file=sys.stderr, flush=True)
    for thread in threads: thread.join(timeout=60)

    must_be_zero = ["5xx outside the restart window", "lost rotations", "reuse-detection failures"]
    print(json.dumps({"seconds": args.seconds, "connections": args.connections,
                      "restart_window_s": None if window.start is None else round((window.end or time.monotonic()) - window.start, 1),
                      **{k: counters.get(k) for k in sorted(set(counters.values) | set(must_be_zero))}}, indent=2))
    failed = [k for k in must_be_zero if counters.get(k)]
    if failed:
        print("FAILED: " + ", ".join(f"{k} {counters.get(k)}" for k in failed), file=sys.stderr)
        return 1
    print("OK: " + ", ".join(f"{k} 0" for k in must_be_zero), file=sys.stderr)
    return 0

if __name__ == "__main__":
    sys.exit(main())
