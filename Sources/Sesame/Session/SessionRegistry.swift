import Foundation
import Logging
import SesameProtocol

/// The signed-in accounts and their credentials, kept in memory and persisted through the
/// ``CredentialStore``: one record per account plus an index record with the
/// most-recently-used order and the current account.
///
/// Every change to an account's session bumps its *generation*; a refresh started under an
/// older generation (the account logged out, or signed in afresh meanwhile) is discarded by
/// ``applyRefresh(_:generation:update:)``. Unreadable records are removed and reported as
/// ``SesameEvent/storeRepaired(key:reason:)``.
actor SessionRegistry {
    private let store: any CredentialStore
    private let events: EventBroadcaster
    private let logger: Logger
    private var sessions: [Account.ID: StoredSession] = [:]
    private var index = SessionIndex()
    private var generations: [Account.ID: UInt64] = [:]
    private var nextGeneration: UInt64 = 1
    private var loaded = false
    /// A copy of the state for lock-based reads without an actor hop (the hot path of
    /// `validAccessToken()`); republished after every change.
    private nonisolated let snapshot = LockedState<Snapshot?>(nil)
    /// The last use of each PIN-unlocked (memory-only) session, for the idle timeout.
    private nonisolated let pinActivity = LockedState<[Account.ID: Date]>([:])

    struct Snapshot: Sendable {
        var access: [Account.ID: AccessSnapshot]
        var current: Account.ID?
    }

    /// What `validAccessToken()` needs from a session: three fields to copy instead of a
    /// whole ``StoredSession`` on every call.
    struct AccessSnapshot: Sendable {
        var accountID: Account.ID
        var accessToken: String
        var expiresAt: Date?

        init(_ session: StoredSession) {
            accountID = session.account.id
            accessToken = session.accessToken
            expiresAt = session.accessTokenExpiresAt
        }

        /// ``StoredSession/accessTokenIsFresh(at:margin:)`` for the copied fields.
        func isFresh(at now: Date, margin: TimeInterval) -> Bool {
            StoredSession.isFresh(expiresAt: expiresAt, at: now, margin: margin)
        }
    }

    init(store: any CredentialStore, events: EventBroadcaster, logger: Logger) {
        self.store = store
        self.events = events
        self.logger = logger
    }

    // MARK: Reading

    /// Loads the index and sessions once (no network).
    func load() async {
        guard !loaded else { return }
        loaded = true
        if let stored = await read(SessionIndex.self, key: StoreKeys.index) { index = stored }
        var order: [Account.ID] = []
        for id in index.order {
            guard let session = await read(StoredSession.self, key: StoreKeys.session(id)),
                session.account.id == id
            else { continue }
            sessions[id] = session
            generations[id] = makeGeneration()
            order.append(id)
        }
        if order != index.order || (index.current.map { sessions[$0] == nil } ?? false) {
            index.order = order
            if let current = index.current, sessions[current] == nil { index.current = order.first }
            await bestEffort("save the repaired account index") { try await self.persistIndex() }
        }
        publishSnapshot()
    }

    func accounts() async -> [Account] {
        await load()
        return index.order.compactMap { sessions[$0]?.account }
    }

    func currentAccount() async -> Account? {
        await load()
        return index.current.flatMap { sessions[$0]?.account }
    }

    /// The session for `id`, or for the current account when `id` is `nil`.
    func session(for id: Account.ID?) async throws(SesameError) -> (StoredSession, UInt64) {
        await load()
        guard let resolved = id ?? index.current, let session = sessions[resolved],
            let generation = generations[resolved]
        else { throw .noSession }
        return (session, generation)
    }

    /// The access token of `id` (the current account when `nil`) from the snapshot, without an
    /// actor hop; `nil` before ``load()`` or when there is no such session.
    nonisolated func cachedAccess(for id: Account.ID?) -> AccessSnapshot? {
        snapshot.withLock { snapshot in
            guard let snapshot, let resolved = id ?? snapshot.current else { return nil }
            return snapshot.access[resolved]
        }
    }

    private func publishSnapshot() {
        let state = Snapshot(
            access: sessions.mapValues(AccessSnapshot.init), current: index.current)
        snapshot.withLock { $0 = state }
    }

    // MARK: Changing

    /// Stores a freshly signed-in session and makes it current and most recently used.
    func signIn(_ session: StoredSession) async throws(SesameError) {
        await load()
        let id = session.account.id
        try await saveSession(session)
        sessions[id] = session
        generations[id] = makeGeneration()
        index.order.removeAll { $0 == id }
        index.order.insert(id, at: 0)
        index.current = id
        publishSnapshot()
        try await persistIndex()
    }

    /// Applies a refresh if the session is still the one the refresh started from; persists the
    /// result **before** returning it. `nil` means the refresh was discarded.
    func applyRefresh(
        _ id: Account.ID, generation: UInt64, update: @Sendable (inout StoredSession) -> Void
    ) async throws(SesameError) -> StoredSession? {
        guard generations[id] == generation, var session = sessions[id] else { return nil }
        update(&session)
        guard try await persist(session, id, generation: generation) else { return nil }
        sessions[id] = session
        publishSnapshot()
        return session
    }

    /// Writes `session` for `id`, then checks that the session is still the one `generation`
    /// names: the write suspended, and a logout or new sign-in may have happened meanwhile. If
    /// so, restores what is true now (no record, or the newer session's record) and returns
    /// `false`.
    private func persist(_ session: StoredSession, _ id: Account.ID, generation: UInt64) async throws(SesameError)
        -> Bool
    {
        try await saveSession(session)
        guard generations[id] == generation, sessions[id] != nil else {
            if let newer = sessions[id] {
                await bestEffort("restore the newer session record") {
                    try await self.write(newer, key: StoreKeys.session(id))
                }
            } else {
                await bestEffort("remove the record of a session that ended during the write") { [store] in
                    try await store.remove(StoreKeys.session(id))
                }
            }
            return false
        }
        return true
    }

    /// Replaces a session's credentials (step-up, docs/first-party-and-accounts.md) if it is still the one that
    /// `generation` names, keeping its place in the account order. Persists before returning and
    /// bumps the generation, so a refresh started with the old tokens is discarded. `false`
    /// means the session ended meanwhile and nothing was stored.
    func replace(_ id: Account.ID, generation: UInt64, with session: StoredSession) async throws(SesameError)
        -> Bool
    {
        guard generations[id] == generation, sessions[id] != nil, session.account.id == id else { return false }
        guard try await persist(session, id, generation: generation) else { return false }
        sessions[id] = session
        generations[id] = makeGeneration()
        publishSnapshot()
        return true
    }

    /// Forgets an account locally (memory and store). Returns the removed session.
    @discardableResult
    func remove(_ id: Account.ID) async -> StoredSession? {
        pinActivity.withLock { _ = $0.removeValue(forKey: id) }
        await load()
        generations[id] = nil
        let removed = sessions.removeValue(forKey: id)
        index.order.removeAll { $0 == id }
        if index.current == id { index.current = index.order.first }
        publishSnapshot()
        do {
            try await store.remove(StoreKeys.session(id))
        } catch {
            logger.warning("could not remove a session record", metadata: ["error": "\(error)"])
        }
        await bestEffort("save the account index after a removal") {
            try await self.persistIndex()
        }
        return removed
    }

    /// Makes `id` current and most recently used.
    func switchTo(_ id: Account.ID, at now: Date) async throws(SesameError) -> Account {
        await load()
        guard var session = sessions[id] else { throw .noSession }
        session.account.lastUsedAt = now
        sessions[id] = session
        await bestEffort("save the account's last use") {
            try await self.saveSession(session)
        }
        index.order.removeAll { $0 == id }
        index.order.insert(id, at: 0)
        index.current = id
        publishSnapshot()
        try await persistIndex()
        return session.account
    }

    // MARK: Store access

    private func makeGeneration() -> UInt64 {
        defer { nextGeneration += 1 }
        return nextGeneration
    }

    private func persistIndex() async throws(SesameError) {
        // Memory-only (PIN-unlocked) sessions are not in the stored index either.
        var stored = index
        stored.order = index.order.filter { sessions[$0]?.memoryOnly != true }
        if let current = stored.current, sessions[current]?.memoryOnly == true { stored.current = stored.order.first }
        try await write(stored, key: StoreKeys.index)
    }

    /// Writes a session's record, or, for a memory-only one, makes sure none is stored.
    private func saveSession(_ session: StoredSession) async throws(SesameError) {
        let key = StoreKeys.session(session.account.id)
        guard session.memoryOnly == true else {
            try await write(session, key: key)
            return
        }
        do {
            try await store.remove(key)
        } catch {
            throw .technical(.storage("could not remove the stored session of a PIN-protected account: \(error)"))
        }
    }

    /// Notes a use of a PIN-unlocked session at `now`; `true` when it had been idle longer than
    /// `timeout` (it is then due to be locked). Sessions that are not PIN-unlocked are never idle.
    nonisolated func useIsAfterIdle(_ id: Account.ID, now: Date, timeout: TimeInterval?) -> Bool {
        pinActivity.withLock { activity in
            guard let last = activity[id] else { return false }
            if let timeout, now.timeIntervalSince(last) > timeout { return true }
            activity[id] = now
            return false
        }
    }

    /// Starts the idle clock of a PIN-unlocked session.
    nonisolated func notePINActivity(_ id: Account.ID, at now: Date) {
        pinActivity.withLock { $0[id] = now }
    }

    /// Turns an account's session into a memory-only one (after a PIN registration): its stored
    /// record, with the refresh token, is removed; it lives until the app ends or logs out.
    func keepInMemoryOnly(_ id: Account.ID) async throws(SesameError) {
        await load()
        guard var session = sessions[id] else { throw .noSession }
        session.memoryOnly = true
        sessions[id] = session
        try await saveSession(session)
        try await persistIndex()
    }

    private func write<T: Encodable>(_ value: T, key: String) async throws(SesameError) {
        let data: Data
        do {
            data = try JSONEncoder().encode(value)
        } catch {
            throw .technical(.storage("could not encode the record \(key)"))
        }
        do {
            try await store.save(data, for: key)
        } catch {
            throw .technical(.storage("could not save the record \(key): \(error)"))
        }
    }

    /// Reads a record; unreadable records are removed and reported, never fatal.
    private func read<T: Decodable>(_ type: T.Type, key: String) async -> T? {
        let data: Data?
        do {
            data = try await store.load(key)
        } catch .recordRemoved(let key, let reason) {
            repaired(key: key, reason: reason)
            return nil
        } catch {
            logger.error("the credential store is unavailable", metadata: ["error": "\(error)"])
            return nil
        }
        guard let data else { return nil }
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch {
            await bestEffort("remove an undecodable record") { [store] in try await store.remove(key) }
            repaired(key: key, reason: "the record does not decode as a Sesame session")
            return nil
        }
    }

    /// Runs a store write whose failure must not fail the caller (the in-memory state is
    /// already right and the next successful write persists it), and says so in the log
    /// instead of dropping the error.
    private func bestEffort(_ action: String, _ write: () async throws -> Void) async {
        do {
            try await write()
        } catch {
            logger.warning(
                "could not \(action); the credential store will be brought up to date by the next successful write",
                metadata: ["error": "\(error)"])
        }
    }

    private func repaired(key: String, reason: String) {
        logger.warning("removed an unreadable credential record", metadata: ["key": "\(key)", "reason": "\(reason)"])
        events.publish(.storeRepaired(key: key, reason: reason))
    }
}
