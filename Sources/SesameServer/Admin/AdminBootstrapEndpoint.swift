import Foundation
import Hummingbird
import SesameProtocol

/// `POST /admin/api/bootstrap` (issue #47, ``AdminBootstrap``): a signed-in user with the admin
/// scope and a second factor, but no role yet, sends the one-time code `sesame serve` printed
/// and becomes the first administrator. Refused once anyone holds a role.
struct AdminBootstrapEndpoint: Sendable {
    let authentication: AdminAuthentication
    let bootstrap: AdminBootstrap

    func redeem(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let user = try await authentication.candidate(request, context: context)
        let body = try await AdminRequest.body(
            AdminBootstrapRequest.self, request, context, what: "a bootstrap request", members: "code")
        let role = try await bootstrap.redeem(body.code, userID: user.id, origin: RequestOrigin(context))
        return JSONResponse.make(AdminBootstrapResult(userID: user.id, role: role.rawValue))
    }
}
