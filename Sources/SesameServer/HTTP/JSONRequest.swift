import Foundation
import Hummingbird
import NIOCore
import SesameProtocol

/// Reading the `application/json` bodies of the account APIs (docs/first-party-and-accounts.md: "JSON bodies
/// with snake_case keys"). Every failure is a 400 that says what to fix:
/// - another media type, a body that is not a JSON object, or more than ``maximumBytes``:
///   `invalid_request` (1000);
/// - a missing, `null` or empty required member, or a member of the wrong type:
///   `validation_failed` (3000) with `error_details` naming each field.
enum JSONRequest {
    /// Account request bodies are small; this bounds parsing work.
    static let maximumBytes = 16 * 1024

    /// A decoded body and the names of the members it contained (to find read-only members
    /// that ``ProfileUpdate`` itself would ignore).
    struct Decoded<Value: Sendable>: Sendable {
        var value: Value
        var members: Set<String>
    }

    /// Decodes `Value`, first checking that every member in `required` is present and not
    /// `null` or blank.
    static func decode<Value: Decodable & Sendable>(
        _ type: Value.Type, from request: Request, context: SesameRequestContext,
        required: [String] = [], validation: AccountValidation
    ) async throws -> Decoded<Value> {
        let data = try await body(of: request, context: context)
        let object: [String: Any]
        do {
            guard let parsed = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                throw EndpointFailure(.invalidRequest, "The body must be a JSON object.")
            }
            object = parsed
        } catch let failure as EndpointFailure {
            throw failure
        } catch {
            throw EndpointFailure(.invalidRequest, "The body is not valid JSON.")
        }
        let missing = required.filter { name in
            guard let value = object[name], !(value is NSNull) else { return true }
            if let text = value as? String { return text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
            return false
        }
        if !missing.isEmpty {
            throw validation.failure(
                missing.map(FieldViolation.required),
                description: "Required fields are missing: \(missing.joined(separator: ", ")).")
        }
        do {
            let value = try JSONDecoder().decode(Value.self, from: data)
            return Decoded(value: value, members: Set(object.keys))
        } catch let error as DecodingError {
            throw validation.failure([violation(error)], description: "A field has the wrong type or format.")
        }
    }

    /// The raw body after the media-type and size checks.
    static func body(of request: Request, context: SesameRequestContext) async throws -> Data {
        guard ContentTypeHeader.matches(request.headers[.contentType], "application/json") else {
            throw EndpointFailure(.invalidRequest, "Send the body as application/json.")
        }
        do {
            let buffer = try await request.body.collect(upTo: maximumBytes)
            return Data(buffer.readableBytesView)
        } catch is NIOTooManyBytesError {
            throw EndpointFailure(
                .invalidRequest, "The body is larger than \(maximumBytes / 1024) KiB.", status: .contentTooLarge)
        }
    }

    /// The field a `DecodingError` is about, as a dotted path (`address.country`).
    static func violation(_ error: DecodingError) -> FieldViolation {
        switch error {
        case .keyNotFound(let key, let context):
            return .required(path(context.codingPath + [key]))
        case .valueNotFound(_, let context):
            return .required(path(context.codingPath))
        case .typeMismatch(_, let context), .dataCorrupted(let context):
            return .invalidFormat(path(context.codingPath))
        @unknown default:
            return .invalidFormat("body")
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        let names = keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
        return names.isEmpty ? "body" : names.joined(separator: ".").replacingOccurrences(of: ".[", with: "[")
    }
}
