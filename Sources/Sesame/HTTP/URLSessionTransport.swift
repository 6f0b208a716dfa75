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
public struct URLSessionTransport: HTTPTransport {
    private let session: URLSession
    /// The 401 responses of refused authentication challenges, by task (Linux only).
    private let refusals: ChallengeRefusals?

    /// - Parameter session: the session to use; the default refuses redirects.
    public init(session: URLSession = URLSessionTransport.makeDefaultSession()) {
        self.session = session
        refusals = (session.delegate as? SessionDelegate)?.refusals
    }

    /// An ephemeral session whose delegate refuses HTTP redirects.
    public static func makeDefaultSession() -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieAcceptPolicy = .never
        configuration.httpShouldSetCookies = false
        configuration.urlCache = nil
        return URLSession(configuration: configuration, delegate: SessionDelegate(), delegateQueue: nil)
    }

    /// Sends `request` on the session and returns the body and response of any status, including
    /// an unfollowed 3xx. Throws the `URLError` when no HTTP response arrived (offline, TLS, cancelled).
    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        #if canImport(FoundationNetworking)
            if let refusals { return try await send(request, refusals: refusals) }
        #endif
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else {
            throw URLError(.badServerResponse)
        }
        return (data, http)
    }

    #if canImport(FoundationNetworking)
        /// Foundation on Linux (swift-corelibs-foundation before #5457) suspends a task for ever
        /// on a 401 with `WWW-Authenticate` when nobody offers credentials. The delegate refuses
        /// the challenge and keeps the 401 it came with, which is returned here; its body is
        /// lost, so the SDK reports the refusal from the status alone.
        private func send(_ request: URLRequest, refusals: ChallengeRefusals) async throws -> (Data, HTTPURLResponse) {
            let holder = LockedState<URLSessionDataTask?>(nil)
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    let task = session.dataTask(with: request) { data, response, error in
                        if let error {
                            if let refused = refusals.take(holder.withLock { $0?.taskIdentifier }),
                                (error as? URLError)?.code == .cancelled
                            {
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
    #endif
}

/// The 401 responses of refused challenges, until the task's completion reads them.
final class ChallengeRefusals: Sendable {
    private let responses = LockedState<[Int: HTTPURLResponse]>([:])

    func keep(_ response: HTTPURLResponse, task: Int) { responses.withLock { $0[task] = response } }

    func take(_ task: Int?) -> HTTPURLResponse? {
        guard let task else { return nil }
        return responses.withLock { $0.removeValue(forKey: task) }
    }
}

/// Answers every redirect with "do not follow": the 3xx response is returned to the caller.
/// Refuses HTTP authentication challenges (a 401 with `WWW-Authenticate`, e.g. a refused client
/// secret): the SDK reads the 401 itself and never offers stored credentials.
private final class SessionDelegate: NSObject, URLSessionTaskDelegate, Sendable {
    let refusals = ChallengeRefusals()

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
                refusals.keep(response, task: task.taskIdentifier)
            }
            completionHandler(.cancelAuthenticationChallenge, nil)
        #else
            // Apple platforms deliver the 401 themselves; TLS trust keeps the system's evaluation.
            completionHandler(.performDefaultHandling, nil)
        #endif
    }
}
