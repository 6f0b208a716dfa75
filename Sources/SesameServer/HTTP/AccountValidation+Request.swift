import Hummingbird
import SesameProtocol

extension AccountValidation {
    /// Validation in the caller's languages: the account's `locale` claim (when known), then
    /// `Accept-Language`.
    init(request: Request, localizer: any Localizer, user: UserRecord? = nil) {
        self.init(localizer: localizer, locales: Self.locales(request: request, preferred: user?.claims.locale))
    }

    /// `preferred` (e.g. a `locale` claim) first, then `Accept-Language`.
    static func locales(request: Request, preferred: String?) -> [String] {
        [preferred].compactMap { $0 }.filter { !$0.isEmpty } + LocalePreference.from(request: request)
    }
}
