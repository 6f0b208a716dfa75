import Foundation
import Hummingbird
import SesameProtocol

/// The device authorization endpoint, `POST /device_authorization` (RFC 8628 §3.1-3.2): a device
/// without a browser authenticates as its client (a public client names itself with
/// `client_id`) and gets a device code to poll `/token` with, and a user code to show with the
/// verification URI. Errors are JSON as at `/token` (§3.2, RFC 6749 §5.2).
struct DeviceAuthorizationEndpoint: Sendable {
    let clientAuthenticator: ClientAuthenticator
    let requests: DeviceAuthorizations

    func post(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let form = try await FormRequest.body(of: request, context: context)
        if request.uri.query?.isEmpty == false {
            throw EndpointFailure(.invalidRequest, "Send the device authorization request's parameters in the body only.")
        }
        let client = try await clientAuthenticator.authenticate(request, form: form, context: context)
        context.annotations.record(clientID: client.clientID)
        let response = try await requests.start(
            client: client, scope: form[OAuthParameter.scope], deviceName: form[DeviceAuthorization.deviceNameParameter])
        context.annotations.record(outcome: "device_code_issued")
        return JSONResponse.make(response)
    }
}
