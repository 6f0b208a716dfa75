import Foundation
import Hummingbird
import SesameProtocol

/// `GET /admin/providers` (issue #47, over ``ProviderAdministration`` as the admin API is): the
/// federation providers at a glance: name, kind, issuer, audiences and whether the login page
/// offers "Continue with …" (a broker client). Never a secret. Changes go through the admin API
/// or `sesame admin`, whose forms of JSON settings a page would only repeat.
struct ConsoleProviderPages: Sendable {
    let page: ConsolePage
    let providers: ProviderAdministration

    func list(_ request: Request, context: SesameRequestContext) async throws -> Response {
        try await page.handle(request, context: context, section: "providers") { visit in
            let t = visit.frame.text
            let rows: [[String: String]] = try await providers.list(by: visit.actor).providers.map { provider in
                [
                    "id": provider.id, "kind": provider.kind, "issuer": provider.issuer,
                    "audiences": provider.audiences.joined(separator: " "),
                    "hosted": provider.brokerClientID == nil || !provider.hasBrokerSecret
                        ? t.string("providers.hosted_no") : t.string("providers.hosted_yes", ["name": provider.displayName]),
                ]
            }
            return page.renderer.page(
                "providers", title: t.string("providers.title"),
                [
                    "rows": rows, "intro": t.string("providers.intro"), "empty": t.string("providers.empty"),
                    "id_label": t.string("providers.id"), "kind_label": t.string("providers.kind"),
                    "issuer_label": t.string("providers.issuer"), "audiences_label": t.string("providers.audiences"),
                    "hosted_label": t.string("providers.hosted"),
                ], frame: visit.frame)
        }
    }
}
