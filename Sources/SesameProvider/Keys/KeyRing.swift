import SesameProtocol
import SesameStore
import Crypto
import Foundation
import JWTKit
import Logging

/// The server's signing keys: creation at first start, the JWKS (RFC 7517 §5, OIDC Discovery
/// `jwks_uri`), signing and verification of JWTs, and rotation with overlap (OIDC Core §10.1.1).
///
/// Key lifecycle (``SigningKeyRecord``): published at `createdAt`, signs from `activatesAt`,
/// stops signing at `retiredAt`, leaves the JWKS at `expiresAt`, after every token it signed
/// has expired.
///
/// Performance: ``sign(_:algorithm:type:)`` and ``verify(_:as:)`` never touch the database and
/// do not queue on this actor; they read an immutable snapshot of the parsed keys (behind a
/// lock (`LockedState`)) and sign on the caller's task. The snapshot is reloaded after ``rotate(overlap:publishAhead:)``,
/// when a token names an unknown `kid` (at most every 5 s), when ``KeyChangeWatcher`` sees the
/// key table change (another process rotated: within a second or two), and otherwise at most
/// every 60 s. A key whose activation time
/// passes is picked up without reload: the choice of signing key is made per call.
public actor KeyRing {
    package let store: any IdentityStore
    package let logger: Logger
    nonisolated package let now: @Sendable () -> Date
    private let sealer: KeySealer
    private let generator: SigningKeyGenerator

    private let snapshot = LockedState<KeyRingSnapshot?>(nil)
    /// Parsed keys by kid, so a reload parses only new keys.
    private var parsed: [String: SigningKeyMaterial] = [:]
    /// RS256 signers by kid (``LibcryptoRS256Signer`` where libcrypto signs), made once per key.
    private var rsaSigners: [String: any JWTAlgorithm] = [:]
    private var inFlightReload: Task<KeyRingSnapshot, any Error>?
    private var reloadSequence = 0
    private var appliedSequence = 0
    private var lastUnknownKidReload: Date = .distantPast
    private var jwksCache: (kids: [String], data: Data)?

    /// Longest time a snapshot is used before the store is read again.
    package static let refreshInterval: TimeInterval = 60
    /// Minimum interval between reloads triggered by unknown `kid`s (bounds the database load
    /// an attacker can cause with made-up key ids).
    package static let unknownKidReloadInterval: TimeInterval = 5

    public init(
        store: any IdentityStore, masterKey: SymmetricKey, logger: Logger,
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.init(store: store, masterKey: masterKey, logger: logger, now: now, rsaKeySource: nil)
    }

    /// A key ring whose new RSA keys come from `rsaKeySource` (``RSAKeySource``).
    package init(
        store: any IdentityStore, masterKey: SymmetricKey, logger: Logger, now: @escaping @Sendable () -> Date,
        rsaKeySource: RSAKeySource?
    ) {
        self.store = store
        self.logger = logger
        self.now = now
        let sealer = KeySealer(masterKey: masterKey)
        self.sealer = sealer
        self.generator = SigningKeyGenerator(sealer: sealer, rsaKeySource: rsaKeySource)
    }

    /// First start: for RS256 and for ES256, if no usable key exists, generates one, active at
    /// once, and persists it sealed. Idempotent; otherwise just loads the existing keys.
    public func ensureKeys() async throws {
        let current = try await reloadFresh()
        let at = wholeSecondNow()
        var generated = false
        for algorithm in SigningAlgorithm.allCases {
            let usable = current.keys.contains {
                $0.algorithm == algorithm && !$0.isExpired(at: at)
                    && !($0.record.retiredAt.map { $0 <= at } ?? false)
            }
            if usable { continue }
            let record = try await generator.generate(algorithm, createdAt: at, activatesAt: at)
            try await store.insertSigningKey(record)
            logger.notice(
                "generated signing key", metadata: ["kid": "\(record.kid)", "alg": "\(record.algorithm)"])
            generated = true
        }
        if generated { _ = try await reloadFresh() }
    }

    /// Reloads as soon as another process announces a key change (``StoreChange``; PostgreSQL),
    /// so a key retired at once stops verifying everywhere in milliseconds rather than at the
    /// next ``KeyChangeWatcher`` tick.
    nonisolated package func followStoreChanges() {
        store.observeChanges { [weak self] change in
            guard change == .signingKeys || change == .everything, let self else { return }
            Task { _ = try? await self.reloadIfChanged() }
        }
    }

    /// Seals a secret that must be readable later (a TOTP secret) with the master key, binding
    /// `context` (e.g. `totp:<user id>`) as additional authenticated data.
    nonisolated package func sealSecret(_ plaintext: String, context: String) throws -> String {
        try sealer.seal(plaintext, kid: context)
    }

    /// Opens a value sealed by ``sealSecret(_:context:)`` with the same `context`.
    nonisolated package func openSecret(_ sealed: String, context: String) throws -> String {
        try sealer.open(sealed, kid: context)
    }

    /// `{"keys":[...]}` with every published, unexpired key (`kty`, `kid`, `use`, `alg`, and
    /// `n`/`e` or `crv`/`x`/`y`). Cached; rebuilt only when the set of published keys changes.
    public func jwks() async throws -> Data {
        let current = try await currentSnapshot()
        let at = now()
        let published = current.keys.filter { $0.isPublished(at: at) }
        let kids = published.map(\.kid)
        if let cache = jwksCache, cache.kids == kids { return cache.data }
        let data = try JWKSDocument(keys: published.map(\.jwk)).encoded()
        jwksCache = (kids, data)
        return data
    }

    /// Signs with the newest key of `algorithm` (`RS256` | `ES256`) whose `activatesAt` has
    /// passed and that is not retired. Header: `alg`, `kid`, `typ` (`JWT` for ID tokens,
    /// `at+jwt` for access tokens, RFC 9068 §2.1).
    public nonisolated func sign<P: JWTPayload>(_ payload: P, algorithm: String, type: String)
        async throws -> String
    {
        guard let algorithm = SigningAlgorithm(rawValue: algorithm) else {
            throw KeyRingError.unsupportedAlgorithm(algorithm)
        }
        let current = try await currentSnapshot()
        guard let key = current.signingKey(for: algorithm, at: now()),
            let signer = current.algorithms[key.kid]
        else { throw KeyRingError.noActiveKey(algorithm: algorithm.rawValue) }
        return try JWSCompactSerialization.sign(payload, kid: key.kid, type: type, algorithm: signer)
    }

    /// Verifies a token signed by any published key (selected by `kid`), then runs
    /// `payload.verify(using:)` (expiry and other claim checks of the payload type).
    public nonisolated func verify<P: JWTPayload>(_ token: String, as type: P.Type) async throws -> P {
        try await verify(token, as: type, headerType: nil)
    }

    /// As ``verify(_:as:)``, and the header's `typ` must be `headerType` (compared
    /// case-insensitively, RFC 7515 §4.1.9), read from the same parse of the header.
    package nonisolated func verify<P: JWTPayload>(_ token: String, as type: P.Type, headerType: String?) async throws
        -> P
    {
        let parts = try JWSCompactSerialization.parse(token)
        if let headerType, parts.typ?.lowercased() != headerType {
            throw KeyRingError.malformedToken(reason: "typ is \(parts.typ ?? "absent"), not \(headerType)")
        }
        var current = try await currentSnapshot()
        if current.verifier(kid: parts.kid, at: now()) == nil {
            current = try await reloadForUnknownKid()
        }
        guard let (key, algorithm) = current.verifier(kid: parts.kid, at: now()) else {
            throw KeyRingError.unknownKey(kid: parts.kid)
        }
        // The key decides the algorithm; a header naming another one is rejected (RFC 8725 §3.1).
        try JWSSignatureCheck.verify(
            parts.signature, over: parts.signingInput, alg: parts.alg, key: key.algorithm,
            kid: key.kid, with: algorithm)
        let payload = try JWTJSON.decoder().decode(P.self, from: parts.payload)
        try await payload.verify(using: algorithm)
        return payload
    }

    /// Rotation with overlap. For each algorithm a new key is published now and activates at
    /// `now + publishAhead`; the keys it replaces retire when it activates and leave the JWKS
    /// `overlap` seconds after they retired (pass the longest token lifetime, so every token
    /// they signed has expired by then). Returns the new keys.
    @discardableResult
    public func rotate(overlap: TimeInterval, publishAhead: TimeInterval = 0) async throws
        -> [SigningKeyRecord]
    {
        let current = try await reloadFresh()
        let at = wholeSecondNow()
        let activation = at.addingTimeInterval(max(0, publishAhead).rounded(.up))
        var created: [SigningKeyRecord] = []
        for algorithm in SigningAlgorithm.allCases {
            for key in current.keys where key.algorithm == algorithm {
                if let retired = key.record.retiredAt, retired <= activation { continue }
                var record = key.record
                record.retiredAt = activation
                record.expiresAt = activation.addingTimeInterval(max(0, overlap).rounded(.up))
                try await store.updateSigningKey(record)
            }
            let record = try await generator.generate(algorithm, createdAt: at, activatesAt: activation)
            try await store.insertSigningKey(record)
            created.append(record)
            logger.notice(
                "rotated signing key",
                metadata: [
                    "kid": "\(record.kid)", "alg": "\(record.algorithm)",
                    "activates_at": "\(activation)",
                ])
        }
        _ = try await reloadFresh()
        return created
    }

    /// Retires one key now: it stops signing, and leaves the key set after `overlap` seconds, or
    /// at once when `immediately` (a key believed compromised: the tokens it signed fail from
    /// then on). When it was its algorithm's only key able to sign, a new one signs from now.
    /// Returns the retired key, or `nil` when no published key has that `kid`.
    public func retire(kid: String, overlap: TimeInterval, immediately: Bool) async throws -> SigningKeyRecord? {
        let current = try await reloadFresh()
        let at = wholeSecondNow()
        guard let key = current.keys.first(where: { $0.kid == kid && !$0.isExpired(at: at) }) else { return nil }
        var record = key.record
        record.retiredAt = min(record.retiredAt ?? at, at)
        record.expiresAt = immediately ? at : min(record.expiresAt ?? .distantFuture, at.addingTimeInterval(max(0, overlap).rounded(.up)))
        try await store.updateSigningKey(record)
        if !current.keys.contains(where: { $0.kid != kid && $0.algorithm == key.algorithm && $0.canSign(at: at) }) {
            let replacement = try await generator.generate(key.algorithm, createdAt: at, activatesAt: at)
            try await store.insertSigningKey(replacement)
            logger.notice("generated signing key", metadata: ["kid": "\(replacement.kid)", "alg": "\(replacement.algorithm)"])
        }
        logger.notice("retired signing key", metadata: ["kid": "\(kid)", "immediately": "\(immediately)"])
        _ = try await reloadFresh()
        return record
    }

    /// Published keys (including ones not yet active) with their lifecycle, oldest first,
    /// for `sesame keys list`.
    public func keys() async throws -> [SigningKeyRecord] {
        let at = now()
        return try await reloadFresh().keys.filter { !$0.isExpired(at: at) }.map(\.record)
    }

    /// Key lifecycle instants are whole seconds, so they survive the store's epoch-seconds
    /// representation exactly and a key created "now" is active "now".
    private func wholeSecondNow() -> Date {
        Date(timeIntervalSince1970: now().timeIntervalSince1970.rounded(.down))
    }

    // MARK: - Snapshot management

    /// The current snapshot, reloaded when missing or older than ``refreshInterval``.
    nonisolated package func currentSnapshot() async throws -> KeyRingSnapshot {
        if let current = snapshot.withLock({ $0 }) {
            let age = now().timeIntervalSince(current.loadedAt)
            if age >= 0, age < Self.refreshInterval { return current }
        }
        return try await reloadShared()
    }

    private func reloadForUnknownKid() async throws -> KeyRingSnapshot {
        let at = now()
        if let current = snapshot.withLock({ $0 }),
            abs(at.timeIntervalSince(lastUnknownKidReload)) < Self.unknownKidReloadInterval
        {
            return current
        }
        lastUnknownKidReload = at
        return try await reloadShared()
    }

    /// Reloads when the store's keys differ from the snapshot's (another process rotated, or a
    /// key was retired or removed); `true` when it did. The comparison reads the key table only.
    @discardableResult
    package func reloadIfChanged() async throws -> Bool {
        let stored = try await store.signingKeys()
        guard let current = snapshot.withLock({ $0 }) else {
            _ = try await reloadShared()
            return true
        }
        let at = now()
        let live = stored.filter { !($0.expiresAt.map { $0 <= at } ?? false) }
        if live == current.keys.map(\.record) { return false }
        _ = try await reloadFresh()
        return true
    }

    /// Joins a reload already in flight, or starts one (single flight).
    private func reloadShared() async throws -> KeyRingSnapshot {
        if let task = inFlightReload { return try await task.value }
        let task = Task { try await self.reloadFresh() }
        inFlightReload = task
        defer { inFlightReload = nil }
        return try await task.value
    }

    /// Reads the store now (after a write of ours). A reload that started earlier and finishes
    /// later never overwrites a newer snapshot.
    @discardableResult
    private func reloadFresh() async throws -> KeyRingSnapshot {
        reloadSequence += 1
        let sequence = reloadSequence
        let at = now()
        var records = try await store.signingKeys()
        for record in records where record.expiresAt.map({ $0 <= at }) ?? false {
            try await store.removeSigningKey(kid: record.kid)
            logger.info("removed expired signing key", metadata: ["kid": "\(record.kid)"])
        }
        records.removeAll { $0.expiresAt.map { $0 <= at } ?? false }

        var keys: [SigningKeyMaterial] = []
        for record in records {
            if var known = parsed[record.kid] {
                known.record = record
                keys.append(known)
            } else {
                keys.append(try SigningKeyMaterial(record: record, sealer: sealer))
            }
        }
        parsed = Dictionary(keys.map { ($0.kid, $0) }, uniquingKeysWith: { _, new in new })

        let collection = JWTKeyCollection()
        var algorithms: [String: any JWTAlgorithm] = [:]
        for key in keys {
            await key.add(to: collection)
            let algorithm = try await collection.getKey(for: JWKIdentifier(string: key.kid))
            algorithms[key.kid] = rsaSigner(for: key, swiftCrypto: algorithm) ?? algorithm
        }
        rsaSigners = rsaSigners.filter { kid, _ in parsed[kid] != nil }
        let fresh = KeyRingSnapshot(keys: keys, algorithms: algorithms, loadedAt: at)
        if sequence > appliedSequence {
            appliedSequence = sequence
            snapshot.withLock { $0 = fresh }
        }
        return snapshot.withLock { $0 } ?? fresh
    }
}

extension KeyRing {
    /// The RS256 signer of `key`, made once per kid: libcrypto's when it imports the key and
    /// signs as swift-crypto does (``LibcryptoRS256Signer``), else `swiftCrypto` (the reason
    /// logged). `nil` for a key that is not RSA.
    private func rsaSigner(for key: SigningKeyMaterial, swiftCrypto: any JWTAlgorithm) -> (any JWTAlgorithm)? {
        guard case .rsa(let privateKey) = key.privateKey else { return nil }
        if let known = rsaSigners[key.kid] { return known }
        let signer: any JWTAlgorithm
        do throws(LibcryptoRS256Signer.Unavailable) {
            signer = try LibcryptoRS256Signer(swiftCrypto, key: privateKey)
            logger.debug("RS256 signs with libcrypto", metadata: ["kid": "\(key.kid)"])
        } catch {
            signer = swiftCrypto
            #if canImport(CLibcrypto)
                logger.warning("RS256 signs with swift-crypto", metadata: ["kid": "\(key.kid)", "reason": "\(error.reason)"])
            #endif
        }
        rsaSigners[key.kid] = signer
        return signer
    }
}

/// An immutable view of the loaded keys, shared by concurrent signers.
package struct KeyRingSnapshot: Sendable {
    /// Oldest first.
    package let keys: [SigningKeyMaterial]
    /// jwt-kit signing algorithms by kid.
    package let algorithms: [String: any JWTAlgorithm]
    package let loadedAt: Date

    /// The newest key of `algorithm` that may sign at `now`.
    package func signingKey(for algorithm: SigningAlgorithm, at now: Date) -> SigningKeyMaterial? {
        keys.filter { $0.algorithm == algorithm && $0.canSign(at: now) }
            .max { ($0.record.activatesAt, $0.record.createdAt) < ($1.record.activatesAt, $1.record.createdAt) }
    }

    /// A published, unexpired key and its algorithm.
    package func verifier(kid: String, at now: Date) -> (SigningKeyMaterial, any JWTAlgorithm)? {
        guard let key = keys.first(where: { $0.kid == kid }), !key.isExpired(at: now),
            let algorithm = algorithms[kid]
        else { return nil }
        return (key, algorithm)
    }
}
