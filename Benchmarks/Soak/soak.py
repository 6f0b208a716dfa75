#!/usr/bin/env python3
"""Soak load for a running Sesame server: many keep-alive connections of mixed grants for a
fixed time, with the database restarted in the middle (or --restarts times, evenly spaced),
counting what must stay zero.

Workers (each on its own HTTP/1.1 keep-alive connection):
  refresh   holds one refresh-token family and rotates it in a loop (RFC 6749 §6, RFC 9700
            §4.14.2); every `--probe-every` rotations it replays the token it rotated last and
            checks that the replay is refused AND that the family's current token is then refused
            too (reuse detection revoked the family); then it signs in again for a new family.
  client    client_credentials grant (RFC 6749 §4.4).
  signin    native sign-in (/authorize-challenge) and the code exchange.
  dpop      a DPoP-bound family (RFC 9449): native sign-in, then rotations, each with a fresh
            proof (ES256 in plain Python, dpop.py), the server's nonce when it asks for one.
  par       a pushed authorization request (RFC 9126), then the browser's GET /authorize with
            its request_uri (the sign-in page; the request waits in pending_authorizations).
  device    a device authorization request (RFC 8628), polled until the server says stop;
            nobody approves it, so every poll is authorization_pending or slow_down.
  metadata  what a relying party's library polls: the discovery document and the JWKS, with a
            HEAD of discovery now and then, --metadata-rate requests a second on each of
            --metadata-connections connections, outside the fixed rate (they write nothing).
            Each answer must be whole: a body that is not the document, or an answer that does
            not come within 10 s, counts as misframed (issue #50: answers written past NIO's
            encoder framed a later answer for an earlier HEAD, and kept a record per request).

With --observe-pids and --database-url, every --observe-every seconds: each server's anonymous
and resident memory (/proc/<pid>/smaps_rollup), the row counts of the tables that hold one-time
and expiring data, and the database's size. Checked at the end (issue #50): anonymous memory
flat (the floor and the ceiling of the last third's samples within 10% of the middle third's), and
no table and not the database growing over the last third (each at most 10% above its maximum
over the middle third plus 100 rows, or 2 MB, of noise). The database is judged only when both
thirds ran at the same rate (--rate keeps it so), and without the files of the tables kept
longer than the run (KEPT_PAST_EXPIRY), which still fill by design.

Counted (and printed at the end; exit status 1 unless all zero):
  5xx outside the restart window   any 5xx or connection error outside every [restart start, restart end + grace]
  lost rotations                   a refresh token the server handed out (200) later refused although no
                                   request with it was cut off
  reuse-detection failures         a replayed token accepted, or the family's current token still working
                                   after the replay
  misframed metadata answers       a discovery or JWKS answer cut short, late, or not the document
Only the Python standard library; run by run.sh.
"""
import argparse, base64, hashlib, http.client, json, os, secrets, subprocess, sys, threading, time, urllib.parse
from dpop import DPoPKey

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
    def total(self):
        with self.lock:
            return sum(self.values.values())

class Window:
    """The restart windows: each [start, end + grace]."""
    def __init__(self, grace):
        self.spans = []   # [start, end or None], in order
        self.grace = grace
    def begin(self, t):
        self.spans.append([t, None])
    def finish(self, t):
        self.spans[-1][1] = t
    def overlaps(self, first, last):
        """Whether [first, last] (a request from its sending to its failure) meets a window."""
        return any(last >= start and (end is None or first <= end + self.grace) for start, end in self.spans)
    def seconds(self):
        return [round((end if end is not None else time.monotonic()) - start, 1) for start, end in self.spans]

class Pacer:
    """At most `rate` requests a second across all workers (0: as fast as the server answers).
    A fixed rate keeps the rows each lifetime creates, and so the database's size, comparable
    between the thirds of the run even when the machine has other work."""
    def __init__(self, rate):
        self.period = 1.0 / rate if rate > 0 else 0.0
        self.lock = threading.Lock()
        self.next = time.monotonic()
    def wait(self):
        if not self.period: return
        with self.lock:
            now = time.monotonic()
            slot = max(now, self.next)
            self.next = slot + self.period
        if slot > now: time.sleep(slot - now)

PACER = Pacer(0)

class Client:
    def __init__(self, host, port, paced=True, timeout=150):
        self.host, self.port = host, port
        # Longer than the server's own statement deadline (120 s) by default, so that a
        # statement that hangs shows as the server's 503, not as the client giving up.
        self.paced, self.timeout = paced, timeout
        self.connection = None
        self.last_headers = None
        self.last_sent = None
    def post(self, path, form, headers=None):
        return self.request("POST", path, form, headers)
    def get(self, path):
        return self.request("GET", path, None)
    def request(self, method, path, form, headers=None):
        if self.paced: PACER.wait()
        self.last_sent = time.monotonic()
        body = None if form is None else urllib.parse.urlencode(form)
        all_headers = {} if form is None else {"Content-Type": "application/x-www-form-urlencoded"}
        all_headers.update(headers or {})
        for attempt in range(2):
            try:
                if self.connection is None:
                    self.connection = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
                self.connection.request(method, path, body, all_headers)
                response = self.connection.getresponse()
                data = response.read()
                self.last_headers = response
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
            except (OSError, http.client.HTTPException):
                # A timeout or a broken answer leaves the connection mid-request: never reuse it.
                if self.connection is not None: self.connection.close()
                self.connection = None
                raise
        raise RuntimeError("unreachable")

def pkce():
    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    return verifier, challenge

class DPoPSigner:
    """One worker's DPoP key and the last nonce the server gave it (RFC 9449 §8)."""
    def __init__(self, base):
        self.key, self.nonce, self.url = DPoPKey(), None, base + "/token"
    def post(self, client, form):
        for _ in range(2):
            status, body = client.post("/token", form, {"DPoP": self.key.proof("POST", self.url, self.nonce)})
            nonce = client.last_headers.getheader("DPoP-Nonce") if client.last_headers else None
            if nonce: self.nonce = nonce
            if status == 400 and b"use_dpop_nonce" in body and nonce:
                continue
            return status, body
        return status, body

def token_post(client, form, signer=None):
    return signer.post(client, form) if signer else client.post("/token", form)

def sign_in(client, args, user, client_id=None, signer=None):
    client_id = client_id or args.public_client
    verifier, challenge = pkce()
    status, body = client.post("/authorize-challenge", {
        "client_id": client_id, "scope": "openid offline_access", "code_challenge": challenge,
        "code_challenge_method": "S256", "username": f"soak-{user}", "password": args.password})
    if status != 200:
        return status, None
    code = json.loads(body)["authorization_code"]
    status, body = token_post(client, {
        "grant_type": "authorization_code", "code": code, "client_id": client_id, "code_verifier": verifier}, signer)
    if status != 200:
        return status, None
    return status, json.loads(body).get("refresh_token")

def refresh(client, args, token, client_id=None, signer=None):
    return token_post(client, {"grant_type": "refresh_token", "refresh_token": token,
                               "client_id": client_id or args.public_client}, signer)

def record_failure(counters, window, status, what, sent=None, client=None):
    """A failure counts inside the restart window when its request was in flight during it
    (sent before the restart or while the database was down, it may fail later)."""
    now = time.monotonic()
    if sent is None and client is not None: sent = client.last_sent
    if window.overlaps(sent if sent is not None else now, now):
        counters.add("errors inside the restart window")
    else:
        counters.add("5xx outside the restart window")
        print(f"{time.strftime('%H:%M:%S')} {what}: {status} outside the restart window", file=sys.stderr, flush=True)

def dpop_worker(args, deadline, counters, window, user):
    refresh_worker(args, deadline, counters, window, user, dpop=True)

def refresh_worker(args, deadline, counters, window, user, dpop=False):
    client = Client(args.host, args.port)
    signer = DPoPSigner(f"http://{args.host}:{args.port}") if dpop else None
    client_id = args.dpop_client if dpop else args.public_client
    prefix = "DPoP " if dpop else ""
    token, previous, in_doubt, rotations = None, None, False, 0
    while time.monotonic() < deadline:
        sent = time.monotonic()
        try:
            if token is None:
                status, token = sign_in(client, args, user, client_id, signer)
                if token is None:
                    if status >= 500: record_failure(counters, window, status, "sign-in", client=client)
                    else: counters.add(f"sign-in refused ({status})"); time.sleep(0.5)
                    continue
                previous, in_doubt, rotations = None, False, 0
            if previous is not None and rotations % args.probe_every == 0:
                # Reuse probe: replay the rotated token, then the current one must be dead.
                status, _ = refresh(client, args, previous, client_id, signer)
                if status >= 500:
                    record_failure(counters, window, status, "replay probe", client=client); continue
                if status == 200:
                    counters.add("reuse-detection failures"); print("replayed token accepted", file=sys.stderr, flush=True)
                status, _ = refresh(client, args, token, client_id, signer)
                if status >= 500:
                    record_failure(counters, window, status, "after replay", client=client); token = None; continue
                if status == 200:
                    counters.add("reuse-detection failures"); print("family survived a replay", file=sys.stderr, flush=True)
                counters.add(prefix + "reuse probes")
                token = None
                continue
            status, body = refresh(client, args, token, client_id, signer)
        except (OSError, http.client.HTTPException) as error:
            record_failure(counters, window, type(error).__name__, "refresh", sent=sent)
            in_doubt = True
            time.sleep(0.05)
            continue
        if status == 200:
            previous, token = token, json.loads(body)["refresh_token"]
            in_doubt, rotations = False, rotations + 1
            counters.add(prefix + "rotations")
        elif status >= 500:
            record_failure(counters, window, status, "refresh", client=client)
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
            record_failure(counters, window, type(error).__name__, "client_credentials", client=client); time.sleep(0.05); continue
        if status == 200: counters.add("client_credentials")
        elif status >= 500: record_failure(counters, window, status, "client_credentials", client=client); time.sleep(0.05)
        else: counters.add("client_credentials refused")

def signin_worker(args, deadline, counters, window, user):
    client = Client(args.host, args.port)
    while time.monotonic() < deadline:
        try:
            status, token = sign_in(client, args, user)
        except (OSError, http.client.HTTPException) as error:
            record_failure(counters, window, type(error).__name__, "sign-in", client=client); time.sleep(0.05); continue
        if token: counters.add("sign-ins")
        elif status >= 500: record_failure(counters, window, status, "sign-in", client=client); time.sleep(0.05)
        else: counters.add(f"sign-in refused ({status})"); time.sleep(0.5)

def par_worker(args, deadline, counters, window, user):
    client = Client(args.host, args.port)
    while time.monotonic() < deadline:
        _, challenge = pkce()
        try:
            status, body = client.post("/par", {
                "client_id": args.public_client, "response_type": "code", "redirect_uri": args.redirect_uri,
                "scope": "openid", "state": secrets.token_urlsafe(12), "code_challenge": challenge,
                "code_challenge_method": "S256"})
            if status == 201:
                request_uri = json.loads(body)["request_uri"]
                status, body = client.get("/authorize?" + urllib.parse.urlencode(
                    {"client_id": args.public_client, "request_uri": request_uri}))
        except (OSError, http.client.HTTPException) as error:
            record_failure(counters, window, type(error).__name__, "PAR", client=client); time.sleep(0.05); continue
        if status == 200: counters.add("pushed requests shown")
        elif status >= 500: record_failure(counters, window, status, "PAR", client=client); time.sleep(0.05)
        else: counters.add(f"PAR refused ({status})"); time.sleep(0.5)

def device_worker(args, deadline, counters, window, user):
    client = Client(args.host, args.port)
    while time.monotonic() < deadline:
        try:
            status, body = client.post("/device_authorization", {"client_id": args.device_client, "scope": "openid"})
            if status != 200:
                if status >= 500: record_failure(counters, window, status, "device authorization", client=client)
                else: counters.add(f"device authorization refused ({status})")
                time.sleep(0.5); continue
            grant = json.loads(body)
            interval = grant.get("interval", 5)
            for _ in range(args.device_polls):
                time.sleep(interval)
                status, body = client.post("/token", {
                    "grant_type": "urn:ietf:params:oauth:grant-type:device_code",
                    "device_code": grant["device_code"], "client_id": args.device_client})
                error = json.loads(body).get("error") if status == 400 else None
                if error in ("authorization_pending", "slow_down"):
                    counters.add("device polls")
                    if error == "slow_down": interval += 5
                elif status >= 500:
                    record_failure(counters, window, status, "device poll", client=client); break
                else:
                    counters.add(f"device poll answered {status} {error}"); break
        except (OSError, http.client.HTTPException) as error:
            record_failure(counters, window, type(error).__name__, "device", client=client); time.sleep(0.05)

def metadata_worker(args, deadline, counters, window, user):
    client = Client(args.host, args.port, paced=False, timeout=10)
    period = 1.0 / args.metadata_rate
    next_request, sent = time.monotonic(), 0
    while time.monotonic() < deadline:
        next_request += period
        time.sleep(max(0.0, next_request - time.monotonic()))
        sent += 1
        # Every 37th: not a multiple of the two-request cycle, so that a misframing by an earlier
        # HEAD is not hidden by the next HEAD taking its place.
        if sent % 37 == 0:
            method, path, expected = "HEAD", "/.well-known/openid-configuration", None
        elif sent % 2:
            method, path, expected = "GET", "/.well-known/openid-configuration", "issuer"
        else:
            method, path, expected = "GET", "/jwks", "keys"
        try:
            status, body = client.request(method, path, None)
        except (OSError, http.client.HTTPException) as error:
            counters.add("misframed metadata answers")
            print(f"metadata {method} {path}: {type(error).__name__} {error}", file=sys.stderr, flush=True)
            continue
        whole = status == 200 and (body == b"" if expected is None else expected in parse_object(body))
        counters.add("metadata answers" if whole else "misframed metadata answers")
        if not whole: print(f"metadata {method} {path}: {status} {body[:120]!r}", file=sys.stderr, flush=True)

def parse_object(body):
    try:
        value = json.loads(body)
        return value if isinstance(value, dict) else {}
    except ValueError:
        return {}

# Tables whose rows outlive the soak's lifetimes, with how long past their expiry they are kept:
# judged only in a run of at least three times that (device requests stay an hour past their
# expiry so that a late poll hears expired_token, RFC 8628 §3.5; a revoked refresh family is
# remembered a day past its last token, so that a replayed token still says why it is refused).
KEPT_PAST_EXPIRY = {"device_authorizations": 3600 + 120, "revoked_refresh_families": 86400 + 300}

OBSERVED_TABLES = [
    "authorization_codes", "pushed_requests", "pending_authorizations", "device_authorizations", "used_dpop_proofs",
    "redeemed_challenges", "webauthn_challenges", "verification_codes", "rate_windows", "throttle_counters",
    "refresh_tokens", "revoked_refresh_families", "revoked_access_tokens", "browser_sessions", "audit_events",
]

def memory_of(pid):
    values = {}
    try:
        with open(f"/proc/{pid}/smaps_rollup") as rollup:
            for line in rollup:
                name, _, rest = line.partition(":")
                if name in ("Rss", "Anonymous"): values[name] = int(rest.split()[0]) // 1024
    except OSError:
        pass
    return values

def observe_once(args, start):
    counts = ", ".join(f"(SELECT count(*) FROM {table})" for table in OBSERVED_TABLES)
    # The files of the tables kept longer than a run judges (KEPT_PAST_EXPIRY), with their
    # indexes and TOAST: still filling by design, so the database is also judged without them.
    filling = " + ".join(f"pg_total_relation_size('{table}')" for table in KEPT_PAST_EXPIRY)
    query = f"SELECT {counts}, pg_database_size(current_database()), {filling}"
    result = subprocess.run(["psql", args.database_url, "-t", "-A", "-F", " ", "-c", query],
                            capture_output=True, text=True, check=False)
    numbers = [int(x) for x in result.stdout.split()] if result.returncode == 0 else []
    sample = {"t": int(time.monotonic() - start)}
    if len(numbers) == len(OBSERVED_TABLES) + 2:
        sample.update(zip(OBSERVED_TABLES, numbers[:-2]))
        sample["database_mb"] = round(numbers[-2] / (1 << 20), 1)
        sample["long_retention_mb"] = round(numbers[-1] / (1 << 20), 1)
    for index, pid in enumerate(args.observe_pids):
        memory = memory_of(pid)
        if memory:
            sample[f"server{index + 1}_anonymous_mb"] = memory.get("Anonymous")
            sample[f"server{index + 1}_rss_mb"] = memory.get("Rss")
    return sample

def observer(args, start, deadline, samples, counters):
    while time.monotonic() < deadline:
        sample = observe_once(args, start)
        sample["requests"] = counters.total()
        samples.append(sample)
        print(f"{time.strftime('%H:%M:%S')} observed " + json.dumps(sample), file=sys.stderr, flush=True)
        time.sleep(min(args.observe_every, max(0.1, deadline - time.monotonic())))
    final = observe_once(args, start)
    final["requests"] = counters.total()
    samples.append(final)

def growth_failures(samples, seconds, lifetime):
    """What grew in the last third of the run (see the top). A table's rows are judged against
    the requests of the last `lifetime` seconds (what that lifetime created): its rows per such
    request over the last third at most 10% above their maximum over the middle third (plus
    100 rows of noise), so a faster or slower load does not read as growth."""
    middle = [s for s in samples if seconds / 3 <= s["t"] < 2 * seconds / 3]
    last = [s for s in samples if s["t"] >= 2 * seconds / 3]
    if not middle or not last:
        return ["too few samples to judge growth"]

    def created(sample):
        earlier = [s for s in samples if s["t"] <= sample["t"] - lifetime and "requests" in s]
        return max(1, sample.get("requests", 0) - (earlier[-1]["requests"] if earlier else 0))

    failures = []
    for name in OBSERVED_TABLES:
        if name not in middle[-1] or name not in last[-1]: continue
        if seconds < 3 * KEPT_PAST_EXPIRY.get(name, 0):
            print(f"{name}: kept {KEPT_PAST_EXPIRY[name]} s past expiry, not judged in a {seconds} s run", file=sys.stderr)
            continue
        before = max(s.get(name, 0) / created(s) for s in middle)
        worst = max(last, key=lambda s: s.get(name, 0) - 100 - 1.1 * before * created(s))
        if worst.get(name, 0) > 1.1 * before * created(worst) + 100:
            failures.append(f"{name} grew: {worst[name]} rows at {worst['t']} s for {created(worst)} requests "
                            f"in the last {lifetime} s (at most {before:.3f} a request in the middle third)")
    # The database's files follow the rows' peak (PostgreSQL reuses freed space but does not
    # shrink its files): judged only when the load ran at the same rate in both thirds.
    def rate(part):
        return (part[-1].get("requests", 0) - part[0].get("requests", 0)) / max(1, part[-1]["t"] - part[0]["t"])
    # In a run shorter than three times their retention, the tables kept past it still fill
    # (judged above only in longer runs); the rest of the database must not grow.
    def settled(sample):
        kept = 0 if seconds >= 3 * max(KEPT_PAST_EXPIRY.values()) else sample.get("long_retention_mb", 0)
        return sample.get("database_mb", 0) - kept
    if abs(rate(last) - rate(middle)) > 0.2 * max(rate(middle), 1):
        print(f"database size: not judged, the load's rate changed from {rate(middle):.0f}/s to {rate(last):.0f}/s",
              file=sys.stderr)
    elif max(settled(s) for s in last) > max(settled(s) for s in middle) * 1.1 + 2:
        failures.append("the database grew over the last third")
    else:
        print(f"database size: {max(settled(s) for s in middle):.1f} MB at most in the middle third, "
              f"{max(settled(s) for s in last):.1f} MB in the last, without the tables kept longer than the run",
              file=sys.stderr)
    # Password sign-ins hash with scrypt (32 MiB each while it runs), so one sample may catch
    # one or two of them: memory is judged by its floor (between hashes) and its ceiling.
    for name in [k for k in last[-1] if k.endswith("_anonymous_mb")]:
        before = [s[name] for s in middle if s.get(name)]
        after = [s[name] for s in last if s.get(name)]
        if not before or not after: continue
        for what, pick in (("floor", min), ("ceiling", max)):
            if pick(after) > pick(before) * 1.1 + 2:
                failures.append(f"{name} {what} grew: {pick(before)} MB in the middle third, {pick(after)} MB in the last")
    return failures

def restarter(args, start, window):
    """Restarts the database `--restarts` times, evenly spaced over the run (once: half-way;
    twice: at a third and two thirds, so that a step per restart shows between the thirds)."""
    for index in range(1, args.restarts + 1):
        time.sleep(max(0, start + args.seconds * index / (args.restarts + 1) - time.monotonic()))
        window.begin(time.monotonic())
        print(f"{time.strftime('%H:%M:%S')} restarting the database: {args.restart_command}", file=sys.stderr, flush=True)
        subprocess.run(args.restart_command, shell=True, check=False)
        window.finish(time.monotonic())
        print(f"{time.strftime('%H:%M:%S')} database back after {window.seconds()[-1]} s", file=sys.stderr, flush=True)

def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--host", default="127.0.0.1"); parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--seconds", type=int, default=600); parser.add_argument("--connections", type=int, default=64)
    parser.add_argument("--public-client", default="soak-app"); parser.add_argument("--confidential-client", default="soak-backend")
    parser.add_argument("--secret", required=True); parser.add_argument("--users", type=int, default=8)
    parser.add_argument("--password", required=True); parser.add_argument("--probe-every", type=int, default=200)
    parser.add_argument("--restart-command", default=""); parser.add_argument("--grace", type=float, default=15.0)
    parser.add_argument("--restarts", type=int, default=1, help="how many times the restart command runs, evenly spaced")
    parser.add_argument("--dpop-client", default="soak-dpop"); parser.add_argument("--device-client", default="soak-tv")
    parser.add_argument("--redirect-uri", default="com.example.soak:/cb"); parser.add_argument("--device-polls", type=int, default=3)
    parser.add_argument("--observe-pids", type=int, nargs="*", default=[]); parser.add_argument("--database-url", default="")
    parser.add_argument("--observe-every", type=float, default=30.0)
    parser.add_argument("--metadata-connections", type=int, default=2)
    parser.add_argument("--metadata-rate", type=float, default=250.0, help="requests a second on each metadata connection")
    parser.add_argument("--rate", type=float, default=0.0,
                        help="requests a second across all workers (0: as fast as the server answers)")
    parser.add_argument("--lifetime", type=float, default=360.0,
                        help="seconds after which what a request created is gone: the longest lifetime plus the purge interval")
    args = parser.parse_args()

    global PACER
    PACER = Pacer(args.rate)
    counters, window = Counters(), Window(args.grace)
    start = time.monotonic()
    deadline = start + args.seconds
    # Of 64 connections: 36 refresh, 12 client_credentials, 4 DPoP, 4 PAR, 4 device, 4 sign-in.
    shares = [(refresh_worker, args.connections * 9 // 16), (client_worker, args.connections * 3 // 16),
              (dpop_worker, args.connections // 16), (par_worker, args.connections // 16),
              (device_worker, args.connections // 16)]
    shares.append((signin_worker, args.connections - sum(n for _, n in shares)))
    workers = [worker for worker, n in shares for _ in range(n)] + [metadata_worker] * args.metadata_connections
    threads = [threading.Thread(target=worker, args=(args, deadline, counters, window, index % args.users), daemon=True)
               for index, worker in enumerate(workers)]
    if args.restart_command:
        threads.append(threading.Thread(target=restarter, args=(args, start, window), daemon=True))
    samples = []
    if args.database_url:
        threads.append(threading.Thread(target=observer, args=(args, start, deadline, samples, counters), daemon=True))
    for thread in threads: thread.start()
    while time.monotonic() < deadline:
        time.sleep(min(30, max(0.1, deadline - time.monotonic())))
        print(f"{time.strftime('%H:%M:%S')} {int(time.monotonic() - start)} s: " +
              ", ".join(f"{k} {v}" for k, v in sorted(counters.values.items())), file=sys.stderr, flush=True)
    for thread in threads: thread.join(timeout=60)

    must_be_zero = ["5xx outside the restart window", "lost rotations", "reuse-detection failures",
                    "misframed metadata answers"]
    growth = growth_failures(samples, args.seconds, args.lifetime) if samples else []
    print(json.dumps({"seconds": args.seconds, "connections": args.connections,
                      "restart_windows_s": window.seconds(),
                      **{k: counters.get(k) for k in sorted(set(counters.values) | set(must_be_zero))},
                      "growth_failures": growth, "samples": samples}, indent=2))
    failed = [k for k in must_be_zero if counters.get(k)]
    if failed or growth:
        print("FAILED: " + ", ".join([f"{k} {counters.get(k)}" for k in failed] + growth), file=sys.stderr)
        return 1
    print("OK: " + ", ".join(f"{k} 0" for k in must_be_zero), file=sys.stderr)
    return 0

if __name__ == "__main__":
    sys.exit(main())
