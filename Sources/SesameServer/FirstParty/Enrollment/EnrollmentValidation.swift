import Hummingbird

/// Field errors of the MFA enrolment bodies (docs/first-party-and-accounts.md: `error_details` on 3000
/// `validation_failed`), decoded by the account APIs' ``JSONRequest`` and localized from the
/// request's `ui_locales` / `Accept-Language` (``LocalePreference``).
enum EnrollmentValidation {
    static func of(_ request: Request, _ services: FirstPartyServices) -> AccountValidation {
        AccountValidation(localizer: services.localizer, locales: LocalePreference.from(request: request))
    }
}
