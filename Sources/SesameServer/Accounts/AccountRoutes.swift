import Hummingbird

/// Routes of the account APIs under `/api/` and the OpenAPI document.
enum AccountRoutes {
    static func register(on router: Router<SesameRequestContext>, services: ServerServices) {}
}
