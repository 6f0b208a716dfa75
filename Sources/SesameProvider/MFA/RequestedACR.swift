import SesameProtocol
import SesameStore

/// The `acr_values` request parameter (OIDC Core §3.1.2.1): the Authentication Context Class
/// References the relying party would accept, space-separated, in order of preference.
///
/// It is a voluntary request: OIDC Core §15.1 asks at minimum that its use not result in an
/// error, and §5.5.1.1 leaves the choice of class to the OP. Values other than
/// ``AuthenticationContextClass/password`` and ``AuthenticationContextClass/multiFactor`` are
/// ignored. The `acr` claim of the tokens always reports what actually happened.
///
/// - Only `urn:sesame:acr:mfa` (the RP accepts nothing weaker): a second factor is required,
///   whatever the client's ``MFAPolicy`` (``requiresMultiFactor``).
/// - Both classes, in any order (what discovery advertises and certification suites send):
///   the client's ``MFAPolicy`` decides, exactly as if no `acr_values` were sent.
/// - Only `urn:sesame:acr:pwd`, unknown values, or nothing: the policy decides.
package struct RequestedACR: Sendable, Equatable {
    /// The known classes requested, in the relying party's order, without repeats.
    package let classes: [String]

    package init(_ acrValues: String?) {
        var classes: [String] = []
        for value in (acrValues ?? "").split(separator: " ").map(String.init)
        where AuthenticationContextClass.all.contains(value) && !classes.contains(value) {
            classes.append(value)
        }
        self.classes = classes
    }

    /// The relying party accepts only a multi-factor authentication.
    package var requiresMultiFactor: Bool {
        classes.contains(AuthenticationContextClass.multiFactor)
            && !classes.contains(AuthenticationContextClass.password)
    }

    /// `urn:sesame:acr:mfa` is among the requested classes (whether or not a weaker one is too):
    /// what a step-up with a bearer token must name (docs/first-party-and-accounts.md).
    package var mentionsMultiFactor: Bool { classes.contains(AuthenticationContextClass.multiFactor) }
}
