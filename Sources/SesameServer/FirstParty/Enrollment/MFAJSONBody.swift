import Foundation
import Hummingbird
import SesameProtocol

/// Decodes the JSON bodies (media type and size checked by ``JSONRequest/body(of:context:)``) of the MFA enrolment endpoints (issue #5: snake_case keys) with
/// clear 400 answers: wrong media type or malformed JSON is `invalid_request`; a missing or
/// mistyped field is 3000 `validation_failed` with a localized `error_details` entry.
enum MFAJSONBody {
    static func decode<Body: Decodable>(
        _ type: Body.Type, from request: Request, context: SesameRequestContext, localizer: any Localizer
    ) async throws -> Body {
        let data = try await JSONRequest.body(of: request, context: context)
        let locales = LocalePreference.from(request: request)
        func field(_ path: [any CodingKey], _ code: String) -> EndpointFailure {
            let name = path.map(\.stringValue).joined(separator: ".")
            return EndpointFailure(
                .validationFailed, "\(name): \(code).",
                details: [localizer.fieldError(field: name, code: code, locales: locales)])
        }
        do {
            return try JSONDecoder().decode(Body.self, from: data)
        } catch DecodingError.keyNotFound(let key, let context) {
            throw field(context.codingPath + [key], "required")
        } catch DecodingError.valueNotFound(_, let context) {
            throw field(context.codingPath, "required")
        } catch DecodingError.typeMismatch(_, let context) where !context.codingPath.isEmpty {
            throw field(context.codingPath, "invalid_format")
        } catch {
            throw EndpointFailure(.invalidRequest, "The body is not a JSON object of the expected shape.")
        }
    }
}
