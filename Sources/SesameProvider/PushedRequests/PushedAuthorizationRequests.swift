import Foundation
import SesameProtocol
import SesameStore

/// Pushed authorization requests (RFC 9126): a client sends its authorization request to
/// `/par` over an authenticated back channel, the request is checked there exactly as
/// `/authorize` would check it, and the browser then carries only `client_id` and the
/// `request_uri` it got back, which `/authorize` exchanges for the stored parameters once.
package struct PushedAuthorizationRequests: Sendable {
    /// How long a `request_uri` stays usable (RFC 9126 §2.2 suggests 5 to 600 seconds; FAPI 2.0
    /// §5.3.2.2 asks for less than 600): long enough for the browser to get to `/authorize`.
    package static let lifetime: TimeInterval = 60

    let store: any ProviderStore
    let validator: AuthorizationRequestValidator
    let now: @Sendable () -> Date

    package init(store: any ProviderStore, validator: AuthorizationRequestValidator, now: @escaping @Sendable () -> Date) {
        self.store = store
        self.validator = validator
        self.now = now
    }

    /// RFC 9126 §2.1-2.2: checks `parameters`, pushed by the authenticated `client`, and stores
    /// them under a new `request_uri`. A `client_id` in the body must be the client's own; a
    /// `request_uri` in it is refused; anything `/authorize` would refuse is refused here, with
    /// the same error code.
    package func push(_ parameters: [String: String], client: ClientRecord) async throws(PushedRequestError)
        -> PushedAuthorizationResponse
    {
        if let named = parameters[OAuthParameter.clientID], named != client.clientID {
            throw PushedRequestError(.invalidRequest, "client_id in the body names another client than the one authenticated.")
        }
        if parameters[OAuthParameter.requestURI] != nil {
            throw PushedRequestError(.invalidRequest, "A pushed request must not contain request_uri (RFC 9126 section 2.1).")
        }
        var request = parameters
        request[OAuthParameter.clientID] = client.clientID
        do {
            _ = try await validator.validate(request)
        } catch let error as AuthorizationRequestError {
            switch error {
            case .page(let code, let description), .redirect(let code, let description, _, _):
                throw PushedRequestError(code, description)
            }
        } catch {
            throw PushedRequestError(.serverError, "The request could not be checked; retry.")
        }
        let secret = SecureRandom.token(byteCount: 32)
        do {
            try await store.insertPushedRequest(
                PushedRequestRecord(
                    digest: SecretDigest.of(secret), clientID: client.clientID, parameters: request,
                    expiresAt: now().addingTimeInterval(Self.lifetime)))
        } catch {
            throw PushedRequestError(.serverError, "The request could not be stored; retry.")
        }
        return PushedAuthorizationResponse(
            requestURI: PushedAuthorizationResponse.requestURIPrefix + secret, expiresIn: Int(Self.lifetime))
    }

    /// The parameters pushed under `requestURI` by `clientID`, taken once (RFC 9126 §4); `nil`
    /// when the value was never issued, has expired, was used already, or belongs to another
    /// client (it is spent either way).
    package func take(requestURI: String, clientID: String) async throws -> [String: String]? {
        guard requestURI.hasPrefix(PushedAuthorizationResponse.requestURIPrefix) else { return nil }
        let secret = String(requestURI.dropFirst(PushedAuthorizationResponse.requestURIPrefix.count))
        guard !secret.isEmpty, secret.count <= 128 else { return nil }
        guard let record = try await store.takePushedRequest(digest: SecretDigest.of(secret), now: now()),
            record.clientID == clientID
        else { return nil }
        return record.parameters
    }
}

/// Why a pushed request is refused: the OAuth error code `/authorize` would have answered and a
/// message saying what to change (RFC 9126 §2.3).
package struct PushedRequestError: Error, Sendable {
    package let code: APIErrorCode
    package let description: String

    package init(_ code: APIErrorCode, _ description: String) {
        self.code = code
        self.description = description
    }
}
