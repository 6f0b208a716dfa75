import Foundation
import Hummingbird

/// The domain association files that let native apps use this server's passkeys
/// (``AppAssociation``, docs/passkeys.md "Apps"):
/// - `GET /.well-known/apple-app-site-association`: `webcredentials` with the Apple App IDs,
///   `applinks` with the universal-link paths;
/// - `GET /.well-known/assetlinks.json`: `delegate_permission/common.get_login_creds` for the
///   Android apps.
/// Each answers 404 `not_found` while no app of its platform is configured. The platforms fetch
/// them from the RP ID's domain, over HTTPS, without redirects.
struct AppAssociationEndpoint: Sendable {
    let apple: Data?
    let android: Data?

    init(_ apps: AppAssociation) {
        apple = apps.appleAppSiteAssociation()
        android = apps.assetLinks()
    }

    func apple(_ request: Request, context: SesameRequestContext) async throws -> Response {
        try Self.file(apple, platform: "Apple", option: "--passkey-apple-app or --apple-app-link")
    }

    func android(_ request: Request, context: SesameRequestContext) async throws -> Response {
        try Self.file(android, platform: "Android", option: "--passkey-android-app")
    }

    private static func file(_ data: Data?, platform: String, option: String) throws -> Response {
        guard let data else {
            throw EndpointFailure(
                .notFound, "No \(platform) app is associated with this server's passkeys; the operator adds one with \(option).")
        }
        var response = JSONResponse.make(data: data, noStore: false)
        response.headers[.cacheControl] = "public, max-age=3600"
        return response
    }
}
