import Foundation
import Sesame
import SesameProtocol

/// Turns a provider rejection with field errors (`error_details`, docs/errors.md) into one CLI
/// error line naming each field, e.g. `error: birthdate: This value is not in the expected
/// format.`; other errors pass through unchanged.
enum APIErrorReport {
    static func explain(_ error: any Error) -> any Error {
        guard let error = error as? SesameError else { return error }
        let fields = error.fieldErrors
        guard !fields.isEmpty else { return error }
        let list = fields.map { "\($0.field): \($0.message) (\($0.code))" }.joined(separator: "; ")
        return CLIError("the server rejected the request: \(list)", hint: "Correct the values and run the command again.")
    }

    /// Runs `body`, explaining field errors.
    static func explaining<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch {
            throw explain(error)
        }
    }
}
