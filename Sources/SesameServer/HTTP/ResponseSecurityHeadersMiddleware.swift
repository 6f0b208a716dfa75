import Foundation
import HTTPTypes
import Hummingbird

/// Headers every response carries, JSON and HTML alike (hosted pages add their own CSP and
/// framing rules, ``SecurityHeaders``):
/// - `X-Content-Type-Options: nosniff` (Fetch §3.5.5, "X-Content-Type-Options"): a browser
///   never reads a JSON body as a script or a page;
/// - with an `https` issuer, `Strict-Transport-Security: max-age=31536000` (RFC 6797 §6.1,
///   one year): after one visit a browser reaches the issuer's host over TLS only, so a network
///   attacker cannot strip TLS from the sign-in pages. Not sent for an `http` issuer (a loopback
///   development server), where a browser would ignore it anyway (RFC 6797 §7.2).
struct ResponseSecurityHeadersMiddleware: RouterMiddleware {
    typealias Context = SesameRequestContext
    static let strictTransportSecurity = "max-age=31536000"
    let https: Bool

    init(issuer: URL) {
        https = issuer.scheme?.lowercased() == "https"
    }

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var response = try await next(request, context)
        Self.addFields(to: &response.headers, https: https)
        return response
    }

    /// Adds the fields a response does not set itself (also for ``StaticDocuments``).
    static func addFields(to headers: inout HTTPFields, https: Bool) {
        if headers[.xContentTypeOptions] == nil { headers[.xContentTypeOptions] = "nosniff" }
        if https, headers[.strictTransportSecurity] == nil {
            headers[.strictTransportSecurity] = strictTransportSecurity
        }
    }
}
