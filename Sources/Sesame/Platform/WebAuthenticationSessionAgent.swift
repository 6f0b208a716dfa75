#if canImport(AuthenticationServices) && (os(iOS) || os(macOS) || os(visionOS) || SESAME_APPLE_DECLARATIONS)
    import AuthenticationServices
    import Foundation
    import SesameProtocol

    /// A ``BrowserAgent`` on Apple platforms: `ASWebAuthenticationSession`, the in-app browser
    /// tab RFC 8252 §6 / §B.1 recommends (never a web view). The callback is matched by the
    /// redirect URI's scheme (private-use scheme, RFC 8252 §7.1) or, for https redirect URIs,
    /// by host and path (claimed https, §7.2). With `ephemeral` the browser shares no cookies
    /// (`prefersEphemeralWebBrowserSession`). User cancellation is ``SesameError/Code-swift.struct/cancelled``.
    public final class WebAuthenticationSessionAgent: BrowserAgent {
        /// Returns the window the sheet is presented from.
        public typealias AnchorProvider = @MainActor @Sendable () -> ASPresentationAnchor

        private let anchor: AnchorProvider

        public init(presentationAnchor: @escaping AnchorProvider) {
            self.anchor = presentationAnchor
        }

        public func start(redirectURI: URL, ephemeral: Bool) async throws(SesameError)
            -> any BrowserAgentSession
        {
            guard let scheme = redirectURI.scheme?.lowercased(), !scheme.isEmpty else {
                throw .invalidConfiguration("the redirect URI has no scheme; ASWebAuthenticationSession needs one")
            }
            if scheme == "https", redirectURI.host == nil {
                throw .invalidConfiguration("an https redirect URI needs a host for ASWebAuthenticationSession")
            }
            if scheme == "https" {
                // Claimed https callbacks (ASWebAuthenticationSession.Callback.https) arrived in
                // iOS 17.4 / macOS 14.4; before them the session can only match a URL scheme.
                guard #available(iOS 17.4, macOS 14.4, visionOS 1.1, *) else {
                    throw .invalidConfiguration(
                        "an https redirect URI needs iOS 17.4 / macOS 14.4 or later for ASWebAuthenticationSession; register a private-use scheme redirect (com.example.app:/callback) for older systems")
                }
            }
            return Session(redirectURI: redirectURI, ephemeral: ephemeral, anchor: anchor)
        }

        final class Session: BrowserAgentSession {
            let redirectURI: URL
            private let ephemeral: Bool
            private let anchor: AnchorProvider
            private let running = LockedState<Running?>(nil)

            init(redirectURI: URL, ephemeral: Bool, anchor: @escaping AnchorProvider) {
                self.redirectURI = redirectURI
                self.ephemeral = ephemeral
                self.anchor = anchor
            }

            func authorize(_ authorizationURL: URL) async throws(SesameError) -> URL {
                let result = await withTaskCancellationHandler {
                    await withCheckedContinuation { (continuation: CheckedContinuation<Result<URL, SesameError>, Never>) in
                        Task { @MainActor in
                            self.present(authorizationURL, continuation: continuation)
                        }
                    }
                } onCancel: {
                    Task { await self.cancel() }
                }
                return try result.get()
            }

            func cancel() async {
                let current = running.withLock { state in
                    defer { state = nil }
                    return state
                }
                await MainActor.run { current?.session.cancel() }
            }

            @MainActor
            private func present(
                _ url: URL, continuation: CheckedContinuation<Result<URL, SesameError>, Never>
            ) {
                let once = Once(continuation)
                let completion: ASWebAuthenticationSession.CompletionHandler = { callbackURL, error in
                    if let callbackURL {
                        once.resume(.success(callbackURL))
                    } else if let error = error as? ASWebAuthenticationSessionError,
                        error.code == .canceledLogin
                    {
                        once.resume(.failure(.cancelled))
                    } else {
                        once.resume(.failure(.technical(.platform(
                            "ASWebAuthenticationSession failed: \(error?.localizedDescription ?? "unknown error")"))))
                    }
                }
                let session = WebAuthenticationSessionAgent.session(url: url, redirectURI: redirectURI, completion: completion)
                let provider = AnchorContextProvider(anchor: anchor())
                session.presentationContextProvider = provider
                session.prefersEphemeralWebBrowserSession = ephemeral
                running.withLock { $0 = Running(session: session, provider: provider) }
                if !session.start() {
                    once.resume(.failure(.technical(.platform("ASWebAuthenticationSession could not start"))))
                }
            }
        }

        /// The session for `url`, matching the callback by host and path for an https redirect
        /// (``start(redirectURI:ephemeral:)`` refused those before iOS 17.4), by scheme otherwise.
        @MainActor
        static func session(
            url: URL, redirectURI: URL, completion: @escaping ASWebAuthenticationSession.CompletionHandler
        ) -> ASWebAuthenticationSession {
            let scheme = redirectURI.scheme?.lowercased() ?? ""
            if #available(iOS 17.4, macOS 14.4, visionOS 1.1, *) {
                let callback: ASWebAuthenticationSession.Callback =
                    if scheme == "https", let host = redirectURI.host {
                        .https(host: host, path: redirectURI.path.isEmpty ? "/" : redirectURI.path)
                    } else {
                        .customScheme(scheme)
                    }
                return ASWebAuthenticationSession(url: url, callback: callback, completionHandler: completion)
            }
            return ASWebAuthenticationSession(url: url, callbackURLScheme: scheme, completionHandler: completion)
        }

        /// Keeps the session and its (weakly referenced) context provider alive while it runs.
        struct Running: @unchecked Sendable {
            let session: ASWebAuthenticationSession
            let provider: AnchorContextProvider
        }

        /// Resumes a continuation at most once.
        final class Once: Sendable {
            private let continuation: LockedState<CheckedContinuation<Result<URL, SesameError>, Never>?>

            init(_ continuation: CheckedContinuation<Result<URL, SesameError>, Never>) {
                self.continuation = LockedState(continuation)
            }

            func resume(_ result: Result<URL, SesameError>) {
                let pending = continuation.withLock { value in
                    defer { value = nil }
                    return value
                }
                pending?.resume(returning: result)
            }
        }

        @MainActor
        final class AnchorContextProvider: NSObject, ASWebAuthenticationPresentationContextProviding {
            private let anchor: ASPresentationAnchor

            init(anchor: ASPresentationAnchor) { self.anchor = anchor }

            nonisolated func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor {
                MainActor.assumeIsolated { anchor }
            }
        }
    }
#endif
