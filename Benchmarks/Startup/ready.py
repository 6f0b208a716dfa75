#!/usr/bin/env python3
"""How long `sesame serve` takes to be ready on an existing database (issue #50: <= 150 ms): from
the exec to the first 200 of both the discovery document and the JWKS. The data directory is made
once (`sesame client add`, which creates the database, its keys and a client; `sesame user add`),
then the server is started RUNS times on it after one warm-up start.

    python3 Benchmarks/Startup/ready.py [--runs 10] [--sesame Benchmarks/.build/release/sesame]
        [--users 0]   # with --users N the store first gets N more users, copied in SQL as
                      # Benchmarks/Benchmarks/ServerBenchmarks/Growth/GrowthGenerator.swift does

Prints each run's milliseconds and the median. Only the Python standard library; the server's
port comes from its `Listening:` line, so nothing is polled before it binds.
"""
import argparse, http.client, os, shutil, socket, sqlite3, statistics, subprocess, sys, tempfile, time


def ready_ms(sesame, data_dir):
    start = time.monotonic()
    process = subprocess.Popen(
        [sesame, "serve", "--port", "0", "--data-dir", data_dir],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        port = None
        for line in process.stdout:
            if line.startswith("Listening: "):
                port = int(line.rsplit(":", 1)[1])
                break
        if port is None:
            raise SystemExit("sesame serve exited before listening")
        for path in ("/.well-known/openid-configuration", "/jwks"):
            while True:
                try:
                    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                    connection.request("GET", path)
                    response = connection.getresponse()
                    response.read()
                    connection.close()
                    if response.status == 200:
                        break
                except OSError:
                    pass
                time.sleep(0.001)
        return (time.monotonic() - start) * 1000
    finally:
        process.terminate()
        process.wait()


def add_users(database, count):
    """Copies the template user `ready` `count` times (ids, names and search terms new)."""
    connection = sqlite3.connect(database)
    connection.executescript(f"""
        BEGIN;
        WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < {count - 1})
        INSERT INTO users (id, username, email, email_verified, password_hash, claims, created_at, updated_at)
        SELECT 'grown-' || i, 'grown' || i, 'grown' || i || '@example.com', u.email_verified, u.password_hash,
               u.claims, u.created_at, u.updated_at
        FROM n, users u WHERE u.username = 'ready';
        INSERT INTO user_search_terms (term, user_id, field)
        SELECT username, id, 'username' FROM users WHERE id LIKE 'grown-%';
        COMMIT;
    """)
    connection.close()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--users", type=int, default=0)
    parser.add_argument("--sesame", default=os.path.join(os.path.dirname(__file__), "../.build/release/sesame"))
    arguments = parser.parse_args()
    work = tempfile.mkdtemp(prefix="sesame-ready-")
    try:
        data_dir = os.path.join(work, "data")
        subprocess.run([arguments.sesame, "client", "add", "ready-app", "--redirect-uri", "http://127.0.0.1/cb",
                        "--data-dir", data_dir], check=True, stdout=subprocess.DEVNULL)
        subprocess.run([arguments.sesame, "user", "add", "ready", "--email", "ready@example.com", "--password-stdin",
                        "--data-dir", data_dir], check=True, stdout=subprocess.DEVNULL,
                       input="ready-password-123\n", text=True)
        if arguments.users:
            add_users(os.path.join(data_dir, "sesame.sqlite"), arguments.users)
        ready_ms(arguments.sesame, data_dir)  # warm-up: page cache, migrations already applied
        runs = [ready_ms(arguments.sesame, data_dir) for _ in range(arguments.runs)]
        print(" ".join(f"{run:.0f}" for run in runs))
        print(f"median {statistics.median(runs):.0f} ms over {len(runs)} runs ({arguments.users} extra users)")
    finally:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
