import Foundation
import Hummingbird
import SesameProtocol

/// What the admin API's endpoints read from a request and write back the same way: a path
/// parameter, a JSON body of one wire type, and the audit log as NDJSON (also the console's
/// export).
enum AdminRequest {
    /// The percent-decoded path parameter `name`, 1 to `maximumLength` characters.
    static func parameter(_ name: String, _ context: SesameRequestContext, maximumLength: Int = 256) throws -> String {
        let raw = context.parameters.get(name) ?? ""
        let value = raw.removingPercentEncoding ?? raw
        guard !value.isEmpty, value.count <= maximumLength else {
            throw EndpointFailure(.invalidRequest, "\(name) is 1 to \(maximumLength) characters.")
        }
        return value
    }

    /// The body as `type`; a wrong member is named (`The body is not <what>: <field> has the wrong
    /// type or format.`), anything else is `The body is not a JSON object of <members>.`
    static func body<Value: Decodable>(
        _ type: Value.Type, _ request: Request, _ context: SesameRequestContext, what: String, members: String
    ) async throws -> Value {
        do {
            return try JSONDecoder().decode(type, from: try await JSONRequest.body(of: request, context: context))
        } catch let failure as EndpointFailure {
            throw failure
        } catch let error as DecodingError {
            let field = JSONRequest.violation(error).field
            throw EndpointFailure(.invalidRequest, "The body is not \(what): \(field) has the wrong type or format.")
        } catch {
            throw EndpointFailure(.invalidRequest, "The body is not a JSON object of \(members).")
        }
    }

    /// One JSON audit record a line (`application/x-ndjson`), keys sorted.
    static func ndjson(_ records: [AdminAuditRecord]) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var body = Data()
        for record in records {
            body.append(try encoder.encode(record))
            body.append(0x0A)
        }
        return body
    }
}
