import Foundation

/// Issue #50's growth: fills a prepared store with `users` users (their search terms too) and
/// `families` live refresh-token families spread over them, in a few set-based statements run
/// by the database's own client (`sqlite3` or `psql`), so a million users and five million
/// families take minutes, not hours of single inserts.
///
/// The rows are copies of what the server itself wrote for the fixture's user `bench` and one
/// of its families (every column the server reads comes from a real row), with new ids and
/// random 43-character token digests, as SHA-256 digests in base64url are: the B-trees are as
/// large and as randomly ordered as a deployment's. The families are live roots (not rotated,
/// not revoked, a day to live), so they sit in every index a refresh or a sign-in reads.
struct GrowthGenerator: Sendable {
    var users: Int
    var families: Int

    /// The size: 1,000,000 users and 5,000,000 live refresh families.
    static let deployment = GrowthGenerator(users: 1_000_000, families: 5_000_000)

    /// Fills the store of `dataDirectory` (SQLite) or `databaseURL` (PostgreSQL). The fixture's
    /// user `bench` and at least one of its families must exist.
    /// Checks the counts afterwards: at least `users` users and `families` live roots.
    func fill(dataDirectory: URL, databaseURL: String?) async throws {
        let output: String
        if let databaseURL {
            let psql = try Executables.find("psql", package: "postgresql-client")
            output = try await ChildRun.run(psql, [databaseURL, "-q", "-t", "-A", "-v", "ON_ERROR_STOP=1", "-c", postgresStatements])
        } else {
            let sqlite = try Executables.find("sqlite3", package: "sqlite3")
            let file = dataDirectory.appendingPathComponent("data/sesame.sqlite")
            output = try await ChildRun.run(sqlite, [file.path, sqliteStatements])
        }
        let counts = output.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        guard counts.count >= 2, counts[counts.count - 2] > users, counts[counts.count - 1] > families else {
            throw BenchmarkSetupError("the growth generator made too few rows: \(output)")
        }
    }

    /// Users, then live refresh-family roots: what ``fill(dataDirectory:databaseURL:)`` checks.
    private static let counts = """
        SELECT (SELECT count(*) FROM users) || ' ' ||
               (SELECT count(*) FROM refresh_tokens WHERE parent_digest IS NULL AND revoked_at IS NULL);
        """

    /// SQLite: numbers from a recursive CTE, digests from `randomblob`, one transaction, a page
    /// cache large enough that the random inserts do not thrash.
    var sqliteStatements: String {
        """
        PRAGMA cache_size = -1000000;
        BEGIN;
        WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < \(users - 1))
        INSERT INTO users (id, username, email, email_verified, password_hash, claims, created_at, updated_at)
        SELECT 'grown-' || i, 'grown' || i, 'grown' || i || '@example.com', u.email_verified, u.password_hash,
               u.claims, u.created_at, u.updated_at
        FROM n, users u WHERE u.username = 'bench';
        INSERT INTO user_search_terms (term, user_id, field)
        SELECT username, id, 'username' FROM users WHERE id LIKE 'grown-%'
        UNION ALL SELECT email, id, 'email' FROM users WHERE id LIKE 'grown-%';
        WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < \(families - 1)),
        template AS (SELECT * FROM refresh_tokens WHERE parent_digest IS NULL LIMIT 1)
        INSERT INTO refresh_tokens (token_digest, family_id, client_id, user_id, scope, authentication,
                                    issued_at, expires_at)
        SELECT substr(lower(hex(randomblob(22))), 1, 43), 'grown-family-' || i, t.client_id,
               'grown-' || (i % \(users)), t.scope, t.authentication, t.issued_at, t.expires_at
        FROM n, template t;
        COMMIT;
        ANALYZE;
        \(Self.counts)
        """
    }

    /// PostgreSQL: `generate_series`, digests from `md5`, then `ANALYZE` so the planner knows.
    var postgresStatements: String {
        """
        BEGIN;
        INSERT INTO users (id, username, email, email_verified, password_hash, claims, created_at, updated_at)
        SELECT 'grown-' || i, 'grown' || i, 'grown' || i || '@example.com', u.email_verified, u.password_hash,
               u.claims, u.created_at, u.updated_at
        FROM generate_series(0, \(users - 1)) AS i, users u WHERE u.username = 'bench';
        INSERT INTO user_search_terms (term, user_id, field)
        SELECT username, id, 'username' FROM users WHERE id LIKE 'grown-%'
        UNION ALL SELECT email, id, 'email' FROM users WHERE id LIKE 'grown-%';
        INSERT INTO refresh_tokens (token_digest, family_id, client_id, user_id, scope, authentication,
                                    issued_at, expires_at)
        SELECT substr(md5(random()::text) || md5(random()::text), 1, 43), 'grown-family-' || i, t.client_id,
               'grown-' || (i % \(users)), t.scope, t.authentication, t.issued_at, t.expires_at
        FROM generate_series(0, \(families - 1)) AS i,
             (SELECT * FROM refresh_tokens WHERE parent_digest IS NULL LIMIT 1) AS t;
        COMMIT;
        ANALYZE;
        \(Self.counts)
        """
    }
}
