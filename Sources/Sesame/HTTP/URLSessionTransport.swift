import Foundation

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

    /// - Parameter session: the session to use; the default refuses redirects.
    public init(session: URLSession = URLSessionTransport.makeDefaultSession()) {
        self.session = session
    }

    /// An ephemeral session whose delegate refuses HTTP redirects.
    public static func makeDefaultSession() -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieAcceptPolicy = .never
        configuration.httpShouldSetCookies = false
        configuration.urlCache = nil
        return URLSession(
            configuration: configuration, delegate: RedirectRefusingDelegate(), delegateQueue: nil)
    }

    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else {
            throw URLError(.badServerResponse)
        }
        return (data, http)
    }
}

/// Answers every redirect with "do not follow": the 3xx response is returned to the caller.
private final class RedirectRefusingDelegate: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
