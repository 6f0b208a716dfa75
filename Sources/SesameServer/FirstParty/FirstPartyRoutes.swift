import Hummingbird

/// Routes of OAuth 2.0 for First-Party Applications and MFA enrolment.
enum FirstPartyRoutes {
    static func register(on router: Router<SesameRequestContext>, services: ServerServices) {}
}
