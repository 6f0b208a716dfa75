import Foundation
import SesameProtocol

extension OpenAPIPaths {
    // MARK: PIN-protected devices (docs/pin-devices.md)

    static var pinPaths: [String: OpenAPI.PathItem] {
        typealias Operation = OpenAPI.Operation
        let registrationID = OpenAPI.Parameter(
            name: "registration_id", in: "path", required: true, description: "The registration's id.", schema: .string())
        var nonEmpty = OpenAPI.Schema.string()
        nonEmpty.minLength = 1
        let clientQuery = OpenAPI.Parameter(
            name: "client_id", in: "query", required: true, description: "The app's client id.", schema: nonEmpty)
        return [
            "/api/pin/policy": OpenAPI.PathItem(
                get: Operation(
                    "getPINPolicy", tag: "PIN devices", summary: "The client's PIN policy",
                    description: "The server never sees a PIN: the app checks new PINs against this policy.",
                    parameters: [clientQuery],
                    responses: merged(
                        ["200": .json("PINPolicy", "The policy.")],
                        ["401": .error("invalid_client (1016): unknown client_id.")], badRequest),
                    security: noAuthentication)),
            "/api/pin/nonce": OpenAPI.PathItem(
                post: Operation(
                    "getPINNonce", tag: "PIN devices", summary: "A single-use nonce to sign for an unlock",
                    description: "Sign `sesame-pin-unlock:<registration_id>:<nonce>` with the registration's Ed25519 key and send it to /token with grant_type \(PINUnlock.grantType) within expires_in seconds.",
                    requestBody: .json("PINNonceRequest"),
                    responses: merged(
                        ["200": .json("PINNonce", "The nonce.")],
                        ["404": .error("pin_registration_revoked (2011): unknown or revoked registration; sign in and register again.")],
                        badRequest),
                    security: noAuthentication)),
            "/api/pin/registrations": OpenAPI.PathItem(
                get: Operation(
                    "listPINRegistrations", tag: "PIN devices", summary: "The user's PIN devices",
                    responses: merged(["200": .json("PINRegistrationList", "Oldest first.")], firstPartyToken),
                    security: bearer),
                post: Operation(
                    "registerPIN", tag: "PIN devices", summary: "Register this device for PIN unlock",
                    description: "The sign-in behind the token must be at most 5 minutes old.",
                    requestBody: .json("PINRegistrationRequest"),
                    responses: merged(
                        ["201": .json("PINRegistration", "Registered.")],
                        ["400": .error("insufficient_authorization (2002): the sign-in is older than 5 minutes; re-authenticate (max_age=0) and retry.")],
                        ["409": .error("too_many_devices (3006): the account has 20 PIN registrations.")],
                        badRequest, firstPartyToken),
                    security: bearer)),
            "/api/pin/registrations/{registration_id}": OpenAPI.PathItem(
                delete: Operation(
                    "removePINRegistration", tag: "PIN devices", summary: "Remove a PIN device",
                    description: "Revokes the registration and every token issued through it.", parameters: [registrationID],
                    responses: merged(
                        ["204": .empty("Removed.")],
                        ["404": .error("pin_registration_revoked (2011): no registration of this account has that id.")],
                        firstPartyToken),
                    security: bearer)),
        ]
    }
}
