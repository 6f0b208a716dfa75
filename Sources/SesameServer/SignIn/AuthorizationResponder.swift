import Foundation
import HTTPTypes
import Hummingbird
import SesameProtocol

/// Builds the responses of the authorization endpoint and the login form: the code redirect
/// (RFC 6749 §4.1.2 with the RFC 9207 `iss` parameter), error redirects (§4.1.2.1) and error
/// pages for requests that must not redirect. Redirects use 303 (RFC 9700 §4.12).
struct AuthorizationResponder: Sendable {
    let provider: Provider
    let pages: HostedPages

    /// Issues a one-time authorization code and redirects to the client; answers `access_denied`
    /// instead when `claims.id_token.sub` names another End-User (OIDC Core §5.5.1: a MUST NOT,
    /// so checked here for every path, although the session and login paths refuse earlier).
    func issueCode(
        for request: AuthorizationRequest, authentication: AuthenticationContext, sessionID: String?,
        extraHeaders: HTTPFields = [:]
    ) async throws -> Response {
        guard request.claims?.admits(userID: authentication.userID) ?? true else {
            return Self.redirect(
                to: request.redirectURI,
                parameters: errorParameters(Self.otherUserThanClaimsSubject, state: request.state))
        }
        let code = SecureRandom.token()
        let now = provider.now()
        var lifetime = provider.settings.authorizationCodeLifetime
        if try await provider.store.client(id: request.clientID)?.securityProfile == .fapi2 {
            // FAPI 2.0 §5.3.2.1 item 13: codes live at most 60 seconds.
            lifetime = min(lifetime, 60)
        }
        var record = AuthorizationCodeRecord(
            codeDigest: SecretDigest.of(code), clientID: request.clientID,
            redirectURI: request.redirectURI, scope: request.scope, nonce: request.nonce,
            codeChallenge: request.codeChallenge, authentication: authentication,
            sessionID: sessionID,
            expiresAt: now.addingTimeInterval(lifetime),
            claims: request.claims?.request, dpopJKT: request.dpopJKT)
        record.resources = request.resources
        try await provider.store.insertAuthorizationCode(record)
        var parameters = [(OAuthParameter.code, code)]
        if let state = request.state { parameters.append((OAuthParameter.state, state)) }
        parameters.append((OAuthParameter.issuer, provider.issuer))
        var response = Self.redirect(to: request.redirectURI, parameters: parameters)
        for field in extraHeaders { response.headers.append(field) }
        return response
    }

    /// Responds to a refused request: an error redirect, or an error page when the client or
    /// redirect URI could not be trusted.
    func refuse(
        _ error: AuthorizationRequestError, request: Request, context: SesameRequestContext,
        uiLocales: String? = nil
    ) -> Response {
        switch error {
        case .page(let code, let description):
            return errorPage(code, description, request: request, context: context, uiLocales: uiLocales)
        case .redirect(let code, let description, let redirectURI, let state):
            context.annotations.record(outcome: code.error)
            return Self.redirect(
                to: redirectURI, parameters: errorParameters((code, description), state: state))
        }
    }

    /// RFC 6749 §4.1.2.1 error parameters, with `state` and the RFC 9207 `iss`.
    private func errorParameters(
        _ error: (code: APIErrorCode, description: String), state: String?
    ) -> [(String, String)] {
        var parameters = [
            (OAuthParameter.error, error.code.error), (OAuthParameter.errorDescription, ErrorDescriptionText.sanitized(error.description)),
        ]
        if let state { parameters.append((OAuthParameter.state, state)) }
        parameters.append((OAuthParameter.issuer, provider.issuer))
        return parameters
    }

    /// The hosted error page (``HostedPages/errorPage(_:_:request:context:uiLocales:messageKey:backLink:)``).
    func errorPage(
        _ code: APIErrorCode, _ description: String, request: Request,
        context: SesameRequestContext, uiLocales: String? = nil, messageKey: String? = nil,
        backLink: (href: String, labelKey: String)? = nil
    ) -> Response {
        pages.errorPage(
            code, description, request: request, context: context, uiLocales: uiLocales, messageKey: messageKey,
            backLink: backLink)
    }

    /// `303 See Other` to `uri` with `parameters` added to its query.
    static func redirect(to uri: String, parameters: [(String, String)]) -> Response {
        let separator = uri.contains("?") ? "&" : "?"
        let location = uri + separator + FormURLEncoding.encode(parameters)
        return Response(
            status: .seeOther,
            headers: [.location: location, .cacheControl: "no-store", .referrerPolicy: "no-referrer"])
    }
}

extension AuthorizationResponder {
    /// OIDC Core §5.5.1: the user who signed in is not the one the relying party asked about.
    static let otherUserThanClaimsSubject = (
        code: APIErrorCode.accessDenied,
        description: "The user who signed in is not the one claims.id_token.sub names; sign in as that user."
    )

    /// Reads the parameters of a browser-facing endpoint from the query (`GET`) or the form
    /// body (`POST`; OIDC Core §3.1.2.1 and RP-Initiated Logout §2 require both), answering an
    /// HTML error page when they are malformed or repeated, then hands them to `handle`.
    func withParameters(
        of request: Request, context: SesameRequestContext, fromBody: Bool,
        _ handle: ([String: String]) async throws -> Response
    ) async throws -> Response {
        let parameters: [String: String]
        if fromBody {
            do {
                parameters = try await FormRequest.body(of: request, context: context)
            } catch let failure as EndpointFailure {
                return errorPage(failure.code, failure.description ?? "", request: request, context: context)
            }
        } else {
            guard let query = FormRequest.query(of: request) else {
                return errorPage(
                    .invalidRequest, "The query is malformed or repeats a parameter.", request: request,
                    context: context)
            }
            parameters = query
        }
        return try await handle(parameters)
    }
}

extension AuthorizationResponder {
    /// What a hosted step found under the reference its page sent.
    enum HeldLookup {
        case held(HeldAuthorization)
        /// The page that answers instead: the request is gone (``APIErrorCode/signInExpired``)
        /// or its client no longer accepts it (the refusal `/authorize` would give now).
        case refused(Response)
    }

    /// The request held for this browser under `parameters`' `authorization_ref`
    /// (``PendingAuthorizations``). `binding` is the browser's pre-session digest, read from
    /// the request's cookie unless given (the federation callback, which the provider's
    /// cross-site redirect reaches without the `SameSite=Strict` cookie, brings its own).
    func held(
        named parameters: [String: String], request: Request, context: SesameRequestContext, binding: String? = nil
    ) async throws -> HeldLookup {
        let reference = parameters[PendingAuthorizations.referenceField]
        do {
            guard
                let held = try await provider.pendingAuthorizations.resume(
                    reference: reference, browserBinding: binding ?? pages.csrf.browserBinding(of: request))
            else {
                return .refused(
                    errorPage(
                        .signInExpired,
                        reference == nil
                            ? "The form names no authorization request (authorization_ref); start from the app."
                            : "The authorization request is not held for this browser: expired, completed or another browser's.",
                        request: request, context: context))
            }
            context.annotations.record(clientID: held.client.clientID)
            return .held(held)
        } catch let error as AuthorizationRequestError {
            return .refused(refuse(error, request: request, context: context))
        }
    }

    /// Completes `held` for the code about to be issued; the page to answer instead when another
    /// request (on any process) completed it first, or it expired meanwhile.
    func complete(_ held: HeldAuthorization, request: Request, context: SesameRequestContext) async throws -> Response? {
        if try await provider.pendingAuthorizations.complete(held) { return nil }
        return errorPage(
            .signInExpired, "The authorization request was completed already or expired.", request: request,
            context: context)
    }
}
