import Foundation

/// A ``BrowserAgent`` without a browser, for tests and scripts: `handler` receives the
/// authorization URL and returns the redirect URL (for example by driving the login form over
/// HTTP).
public struct HeadlessBrowserAgent: BrowserAgent {
    private let redirectURI: URL?
    private let handler: @Sendable (URL) async throws -> URL

    /// - Parameters:
    ///   - redirectURI: the redirect URI to use instead of the configured one.
    ///   - handler: gets the authorization URL, returns the redirect URL.
    public init(redirectURI: URL? = nil, handler: @escaping @Sendable (URL) async throws -> URL) {
        self.redirectURI = redirectURI
        self.handler = handler
    }

    /// Returns a session for the `redirectURI` given at init, else the configured one; `ephemeral`
    /// has no meaning without a browser. Its `authorize` calls `handler`; a `CancellationError`
    /// from it becomes ``SesameError/Code-swift.struct/cancelled``.
    public func start(redirectURI: URL, ephemeral: Bool) async throws(SesameError) -> any BrowserAgentSession {
        Session(redirectURI: self.redirectURI ?? redirectURI, handler: handler)
    }

    struct Session: BrowserAgentSession {
        let redirectURI: URL
        let handler: @Sendable (URL) async throws -> URL

        func authorize(_ authorizationURL: URL) async throws(SesameError) -> URL {
            do {
                return try await handler(authorizationURL)
            } catch let error as SesameError {
                throw error
            } catch is CancellationError {
                throw .cancelled
            } catch {
                throw .technical(.platform("the headless browser handler failed: \(error)"))
            }
        }

        func cancel() async {}
    }
}
