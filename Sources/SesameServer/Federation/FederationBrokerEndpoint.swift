import Foundation
import HTTPTypes
import Hummingbird
import SesameProtocol

/// "Continue with …" on the hosted login page (docs/federation.md): Sesame signs the user in
/// at the provider as its relying party, then resumes the original authorization request.
///
/// - `GET /federation/start?provider=…&authorization_ref=…`: the authorization request held for
///   this browser (``PendingAuthorizations``) is found by its reference; the provider's
///   authorization endpoint gets a code request with PKCE S256, a fresh `state` and `nonce`.
///   What the callback needs (the verifier, nonce, state, and the held request's reference and
///   browser binding, never its parameters) travels in a cookie sealed with the master key
///   (AES-GCM), good for 10 minutes: nothing secret in a URL. The provider's cross-site redirect
///   back does not carry the `SameSite=Strict` pre-session cookie, so the sealed cookie brings
///   the binding the start checked.
/// - `GET /federation/callback?code&state`: the cookie is opened, `state` compared, the code
///   redeemed at the provider, its ID token checked in full (``FederatedTokenValidator``, with
///   the `nonce`), the account found or made (``FederatedAccounts``), the held request
///   completed (once), the browser session started, and the original client gets its code, as
///   after a password sign-in.
struct FederationBrokerEndpoint: Sendable {
    /// The identity core (named so beside the federation provider each request is about).
    let core: Provider
    let pages: HostedPages
    let responder: AuthorizationResponder
    let completion: SignInCompletion

    private var upstream: UpstreamProvider { core.upstream }

    static let cookieName = "sesame_federation"
    static let callbackPath = HostedPageRoutes.federationCallback
    static let lifetime: TimeInterval = 600
    static let sealContext = "federation-broker"

    struct Pending: Codable {
        var provider: String
        var state: String
        var nonce: String
        var verifier: String
        /// The held authorization request's reference and the browser it is bound to.
        var authorizationReference: String
        var browserBinding: String
        var expiresAt: Double
    }

    private var callbackURI: String { core.issuer + Self.callbackPath }

    func start(_ request: Request, context: SesameRequestContext) async throws -> Response {
        try await responder.withParameters(of: request, context: context, fromBody: false) { parameters in
            let held: HeldAuthorization
            switch try await responder.held(named: parameters, request: request, context: context) {
            case .held(let found): held = found
            case .refused(let page): return page
            }
            guard let name = parameters["provider"], let provider = try await brokeringProvider(name) else {
                return responder.errorPage(
                    .unknownFederationProvider, "No provider of that name offers browser sign-in here.", request: request,
                    context: context)
            }
            let endpoints: UpstreamProvider.Endpoints
            do throws(FederationRefusal) {
                endpoints = try await upstream.endpoints(for: provider)
            } catch {
                return responder.errorPage(error.code, error.description, request: request, context: context)
            }
            let pkce = PKCE()
            let pending = Pending(
                provider: provider.id, state: SecureRandom.token(byteCount: 16), nonce: SecureRandom.token(byteCount: 16),
                verifier: pkce.verifier, authorizationReference: held.reference, browserBinding: held.browserBinding,
                expiresAt: core.now().addingTimeInterval(Self.lifetime).timeIntervalSince1970)
            let sealed = try core.keyRing.sealSecret(
                String(decoding: try JSONEncoder().encode(pending), as: UTF8.self), context: Self.sealContext)
            var components = URLComponents(string: endpoints.authorization)
            let existing = components?.queryItems ?? []
            components?.queryItems = existing + [
                .init(name: "response_type", value: "code"), .init(name: "client_id", value: provider.brokerClientID),
                .init(name: "redirect_uri", value: callbackURI), .init(name: "scope", value: "openid email profile"),
                .init(name: "state", value: pending.state), .init(name: "nonce", value: pending.nonce),
                .init(name: "code_challenge", value: pkce.challenge), .init(name: "code_challenge_method", value: PKCE.method),
            ]
            if endpoints.claimsParameterSupported {
                components?.queryItems?.append(
                    .init(name: "claims", value: #"{"id_token":{"email":null,"email_verified":null,"name":null}}"#))
            }
            guard let location = components?.url?.absoluteString else {
                return responder.errorPage(.serverError, "The provider's authorization endpoint is not a URL.", request: request, context: context)
            }
            context.annotations.record(outcome: "federation_started")
            return Response(
                status: .seeOther,
                headers: [.location: location, .cacheControl: "no-store", .setCookie: cookie(sealed, maxAge: Int(Self.lifetime))])
        }
    }

    func callback(_ request: Request, context: SesameRequestContext) async throws -> Response {
        try await responder.withParameters(of: request, context: context, fromBody: false) { parameters in
            guard let sealed = BrowserCookies.value(Self.cookieName, in: request),
                let text = try? core.keyRing.openSecret(sealed, context: Self.sealContext),
                let pending = try? JSONDecoder().decode(Pending.self, from: Data(text.utf8)),
                pending.expiresAt > core.now().timeIntervalSince1970,
                let state = parameters[OAuthParameter.state], ConstantTime.equals(state, pending.state)
            else {
                return responder.errorPage(
                    .invalidRequest, "This sign-in through the provider expired or did not start in this browser; start again.",
                    request: request, context: context)
            }
            var headers: HTTPFields = [.setCookie: cookie("", maxAge: 0)]
            do {
                let held: HeldAuthorization
                switch try await responder.held(
                    named: [PendingAuthorizations.referenceField: pending.authorizationReference], request: request,
                    context: context, binding: pending.browserBinding)
                {
                case .held(let found): held = found
                case .refused(var page):
                    page.headers.append(contentsOf: headers)
                    return page
                }
                let authorization = held.authorization
                let client = held.client
                let exchange = core.federation
                guard let provider = try await brokeringProvider(pending.provider) else { throw FederationRefusal.unknownProvider("the provider is no longer registered for browser sign-in") }
                guard let code = parameters[OAuthParameter.code], !code.isEmpty else {
                    throw FederationRefusal.invalidToken(
                        rule: "upstream", "the provider did not sign the user in (\(parameters["error"] ?? "no code"))")
                }
                let secret = try core.keyRing.openSecret(
                    provider.brokerClientSecretSealed ?? "", context: ProviderSecrets.context(provider.id))
                let idToken = try await upstream.idToken(
                    code: code, verifier: pending.verifier, redirectURI: callbackURI, clientID: provider.brokerClientID ?? "",
                    secret: secret, endpoints: try await upstream.endpoints(for: provider))
                let claims = try await exchange.validator.validate(idToken, provider: provider, nonce: pending.nonce)
                let (user, outcome) = try await exchange.accounts.account(for: claims, provider: provider, origin: RequestOrigin(context))
                exchange.accounts.audit.record(
                    .federationSignedIn, reason: "\(outcome)", context: context, clientID: client.clientID, userID: user.id,
                    detail: ["provider": provider.id, "via": "browser"])
                let authentication = AuthenticationContext(
                    userID: user.id, authTime: core.now(), acr: nil, amr: [Federation.authenticationMethod])
                let redirect = try await completion.complete(
                    authentication, held: held, request: request, context: context, outcome: "code_issued_federation")
                guard redirect.status == .seeOther else {
                    var refused = redirect
                    refused.headers.append(contentsOf: headers)
                    return refused
                }
                for cookie in redirect.headers[values: .setCookie] { headers.append(HTTPField(name: .setCookie, value: cookie)) }
                // The provider's login form led here; its CSP may not allow one more redirect.
                var page = pages.renderer.continuing(
                    to: redirect.headers[.location] ?? authorization.redirectURI,
                    locales: LocalePreference.from(request: request, uiLocales: authorization.uiLocales))
                page.headers.append(contentsOf: headers)
                return page
            } catch let refusal as FederationRefusal {
                core.audit.record(
                    .federationRefused, reason: refusal.rule, context: context, detail: ["provider": pending.provider, "via": "browser"])
                var page = responder.errorPage(refusal.code, refusal.description, request: request, context: context)
                page.headers.append(contentsOf: headers)
                return page
            }
        }
    }

    /// The registered provider `name` when it offers browser sign-in.
    private func brokeringProvider(_ name: String) async throws -> FederationProviderRecord? {
        guard let provider = try await core.store.federationProvider(id: name), provider.brokers
        else { return nil }
        return provider
    }

    /// The pending sign-in's cookie: this path only, never readable by scripts, sent on the
    /// provider's top-level redirect back (`SameSite=Lax`).
    private func cookie(_ value: String, maxAge: Int) -> String {
        let secure = core.settings.issuer.scheme == "https" ? "; Secure" : ""
        return "\(Self.cookieName)=\(value); Path=/federation; Max-Age=\(maxAge); HttpOnly; SameSite=Lax\(secure)"
    }
}
