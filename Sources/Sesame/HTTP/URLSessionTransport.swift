import Foundation
import SesameProtocol

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// ``HTTPTransport`` over `URLSession`.
///
/// The default session is ephemeral (no cookies, no cache: OAuth responses carry
/// `Cache-Control: no-store`) and does **not follow redirects**, so a token or userinfo request
/// carrying credentials is never re-sent to a location chosen by the server (RFC 9700 §4.12).
///
/// With ``init(pinning:)`` it enforces certificate pins on Apple platforms, in `URLSession`'s
/// server-trust challenge: the system evaluates the chain first, then one of its keys must be
/// pinned, or the connection is cancelled before the request is written. Foundation on Linux
/// offers no trust hook: there this transport refuses pinned hosts, and `NIOTransport` (the
/// `SesameNIOTransport` product) pins instead.
public struct URLSessionTransport: HTTPTransport {
    private let session: URLSession
    /// The default delegate's per-task records (refused challenges, pin mismatches); `nil` for an
    /// app's own session.
    private let records: TaskRecords?
    private let pinning: CertificatePinning

    /// - Parameter session: the session to use; the default refuses redirects and pins nothing.
    public init(session: URLSession = URLSessionTransport.makeDefaultSession()) {
        self.session = session
        records = (session.delegate as? SessionDelegate)?.records
        pinning = .none
    }

    /// The default session, enforcing `pinning` (Apple platforms; see the type's description).
    public init(pinning: CertificatePinning) {
        let delegate = SessionDelegate(pinning: pinning)
        session = Self.makeSession(delegate: delegate)
        records = delegate.records
        self.pinning = pinning
    }

    /// The pins this transport enforces: those it was made with on Apple platforms, none on Linux.
    public var certificatePinning: CertificatePinning? {
        #if canImport(FoundationNetworking)
            nil
        #else
            pinning
        #endif
    }

    /// An ephemeral session whose delegate refuses HTTP redirects.
    public static func makeDefaultSession() -> URLSession {
        makeSession(delegate: SessionDelegate(pinning: .none))
    }

    private static func makeSession(delegate: SessionDelegate) -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieAcceptPolicy = .never
        configuration.httpShouldSetCookies = false
        configuration.urlCache = nil
        return URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    /// Sends `request` on the session and returns the body and response of any status, including
    /// an unfollowed 3xx. Throws the `URLError` when no HTTP response arrived (offline, TLS,
    /// cancelled), and ``CertificatePinMismatch/error`` when the server's keys are not pinned.
    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        #if canImport(FoundationNetworking)
            if let host = request.url?.host, pinning.entry(for: host, at: Date()) != nil {
                throw SesameError.invalidConfiguration(
                    "\(host) is pinned, but Foundation on Linux cannot check certificate pins; use NIOTransport(pinning:) from the SesameNIOTransport product.")
            }
        #endif
        if let records { return try await send(request, records: records) }
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else {
            throw URLError(.badServerResponse)
        }
        return (data, http)
    }

    /// Sends on a data task whose identifier the delegate's records are keyed by. Foundation on
    /// Linux (swift-corelibs-foundation before #5457) suspends a task for ever on a 401 with
    /// `WWW-Authenticate` when nobody offers credentials: the delegate refuses the challenge and
    /// keeps the 401, returned here (its body is lost, so the SDK reports the refusal from the
    /// status alone). A trust challenge cancelled for a pin mismatch ends as that mismatch.
    private func send(_ request: URLRequest, records: TaskRecords) async throws -> (Data, HTTPURLResponse) {
        let holder = LockedState<URLSessionDataTask?>(nil)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let task = session.dataTask(with: request) { data, response, error in
                    let identifier = holder.withLock { $0?.taskIdentifier }
                    if let mismatch = records.takeMismatch(identifier) {
                        continuation.resume(throwing: mismatch.error)
                    } else if let error {
                        if let refused = records.takeRefusal(identifier), (error as? URLError)?.code == .cancelled {
                            continuation.resume(returning: (Data(), refused))
                        } else {
                            continuation.resume(throwing: error)
                        }
                    } else if let http = response as? HTTPURLResponse {
                        continuation.resume(returning: (data ?? Data(), http))
                    } else {
                        continuation.resume(throwing: URLError(.badServerResponse))
                    }
                }
                holder.withLock { $0 = task }
                task.resume()
            }
        } onCancel: {
            holder.withLock { $0?.cancel() }
        }
    }
}

/// The 401 responses of refused authentication challenges and the pin mismatches of refused
/// trust challenges, by task, until the task's completion reads them.
final class TaskRecords: Sendable {
    private let refusals = LockedState<[Int: HTTPURLResponse]>([:])
    private let mismatches = LockedState<[Int: CertificatePinMismatch]>([:])

    func keep(_ response: HTTPURLResponse, task: Int) { refusals.withLock { $0[task] = response } }
    func keep(_ mismatch: CertificatePinMismatch, task: Int) { mismatches.withLock { $0[task] = mismatch } }

    func takeRefusal(_ task: Int?) -> HTTPURLResponse? {
        guard let task else { return nil }
        return refusals.withLock { $0.removeValue(forKey: task) }
    }

    func takeMismatch(_ task: Int?) -> CertificatePinMismatch? {
        guard let task else { return nil }
        return mismatches.withLock { $0.removeValue(forKey: task) }
    }
}

/// Answers every redirect with "do not follow": the 3xx response is returned to the caller.
/// Refuses HTTP authentication challenges (a 401 with `WWW-Authenticate`, e.g. a refused client
/// secret): the SDK reads the 401 itself and never offers stored credentials. Checks the
/// certificate pins in the server-trust challenge (Apple platforms, ``ServerTrustPinning``).
private final class SessionDelegate: NSObject, URLSessionTaskDelegate, Sendable {
    let records = TaskRecords()
    let pinning: CertificatePinning

    init(pinning: CertificatePinning) {
        self.pinning = pinning
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        #if canImport(FoundationNetworking)
            if let response = challenge.failureResponse as? HTTPURLResponse {
                records.keep(response, task: task.taskIdentifier)
            }
            completionHandler(.cancelAuthenticationChallenge, nil)
        #else
            // Apple platforms deliver the 401 themselves. A server-trust challenge keeps the
            // system's evaluation, followed by the pins where the host has them.
            #if canImport(Security)
                if challenge.protectionSpace.authenticationMethod == NSURLAuthenticationMethodServerTrust,
                    let trust = challenge.protectionSpace.serverTrust
                {
                    let host = challenge.protectionSpace.host
                    switch ServerTrustPinning.evaluate(trust, host: host, pinning: pinning, at: Date()) {
                    case .systemDecides:
                        completionHandler(.performDefaultHandling, nil)
                    case .trusted:
                        completionHandler(.useCredential, URLCredential(trust: trust))
                    case .refused(let mismatch):
                        records.keep(mismatch, task: task.taskIdentifier)
                        completionHandler(.cancelAuthenticationChallenge, nil)
                    }
                    return
                }
            #endif
            completionHandler(.performDefaultHandling, nil)
        #endif
    }
}
