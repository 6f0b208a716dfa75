import Foundation
import SesameProtocol

extension SesameError {
    /// The per-field validation failures of a rejected request (`error_details`, docs/errors.md),
    /// e.g. `[{field: "email", code: "not_writable"}]`; empty when there are none.
    public var fieldErrors: [FieldError] { apiError?.errorDetails ?? [] }
}
