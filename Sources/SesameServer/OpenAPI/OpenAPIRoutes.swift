import Hummingbird

/// The OpenAPI 3.1 document of the JSON APIs, at `/api/openapi.json` (``OpenAPIEndpoint``).
struct OpenAPIRoutes: FeatureRoutes {
    let endpoint: OpenAPIEndpoint

    func register(on router: Router<SesameRequestContext>) {
        router.get("/api/openapi.json", use: endpoint.handle)
    }
}
