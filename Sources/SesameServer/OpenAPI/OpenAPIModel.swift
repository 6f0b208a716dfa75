import Foundation

/// The subset of the OpenAPI 3.1 object model (https://spec.openapis.org/oas/v3.1.0) that
/// Sesame's document uses, as Swift values encoded with `JSONEncoder`.
enum OpenAPI {
    /// OpenAPI §4.8.1 OpenAPI Object.
    struct Document: Encodable, Sendable {
        var openapi = "3.1.0"
        var info: Info
        var servers: [Server]
        var tags: [Tag]
        /// Path template (`/api/devices/{device_id}`) → operations.
        var paths: [String: PathItem]
        var components: Components

        struct Info: Encodable, Sendable {
            var title: String
            var version: String
            var description: String
        }

        struct Server: Encodable, Sendable {
            var url: String
        }

        struct Tag: Encodable, Sendable {
            var name: String
            var description: String
        }

        struct Components: Encodable, Sendable {
            var schemas: [String: Schema]
            var securitySchemes: [String: SecurityScheme]
        }

        /// §4.8.27: here only HTTP bearer (RFC 6750) and HTTP basic (RFC 6749 §2.3.1).
        struct SecurityScheme: Encodable, Sendable {
            var type = "http"
            var scheme: String
            var bearerFormat: String?
            var description: String
        }
    }

    /// §4.8.9 Path Item Object: the operations of one path.
    struct PathItem: Encodable, Sendable {
        var get: Operation?
        var post: Operation?
        var put: Operation?
        var patch: Operation?
        var delete: Operation?

        /// The HTTP methods (upper case) with an operation.
        var methods: [String] {
            [("GET", get), ("POST", post), ("PUT", put), ("PATCH", patch), ("DELETE", delete)]
                .filter { $0.1 != nil }.map(\.0)
        }
    }

    /// §4.8.10 Operation Object.
    struct Operation: Encodable, Sendable {
        var operationId: String
        var tags: [String]
        var summary: String
        var description: String?
        var parameters: [Parameter]?
        var requestBody: RequestBody?
        var responses: [String: ResponseObject]
        /// `[]` for none; `[["bearerAuth": []]]` for a bearer access token.
        var security: [[String: [String]]]?

        init(
            _ operationId: String, tag: String, summary: String, description: String? = nil,
            parameters: [Parameter]? = nil, requestBody: RequestBody? = nil,
            responses: [String: ResponseObject], security: [[String: [String]]]? = nil
        ) {
            self.operationId = operationId
            self.tags = [tag]
            self.summary = summary
            self.description = description
            self.parameters = parameters
            self.requestBody = requestBody
            self.responses = responses
            self.security = security
        }
    }

    /// §4.8.12 Parameter Object.
    struct Parameter: Encodable, Sendable {
        var name: String
        var `in`: String
        var required: Bool
        var description: String
        var schema: Schema
    }

    /// §4.8.13 Request Body Object.
    struct RequestBody: Encodable, Sendable {
        var description: String?
        var required = true
        var content: [String: MediaType]

        static func json(_ schema: String, _ description: String? = nil) -> RequestBody {
            RequestBody(description: description, content: ["application/json": MediaType(schema: .ref(schema))])
        }

        static func form(_ schema: String, _ description: String? = nil) -> RequestBody {
            RequestBody(
                description: description,
                content: ["application/x-www-form-urlencoded": MediaType(schema: .ref(schema))])
        }
    }

    /// §4.8.14 Media Type Object.
    struct MediaType: Encodable, Sendable {
        var schema: Schema
    }

    /// §4.8.17 Response Object.
    struct ResponseObject: Encodable, Sendable {
        var description: String
        var content: [String: MediaType]?

        static func json(
            _ schema: String, _ description: String, mediaType: String = "application/json"
        ) -> ResponseObject {
            ResponseObject(description: description, content: [mediaType: MediaType(schema: .ref(schema))])
        }

        static func empty(_ description: String) -> ResponseObject {
            ResponseObject(description: description, content: nil)
        }

        /// An ``APIError`` body (docs/errors.md).
        static func error(_ description: String) -> ResponseObject {
            json("APIError", description)
        }
    }

    /// §4.8.24 Schema Object (JSON Schema 2020-12), the members Sesame uses.
    struct Schema: Encodable, Sendable {
        var ref: String?
        var type: String?
        var format: String?
        var description: String?
        var properties: [String: Schema]?
        var required: [String]?
        var items: Items?
        var stringValues: [String]?
        var integerValues: [Int]?
        var additionalProperties: Bool?
        /// JSON Schema `minLength`: a string the server refuses when empty.
        var minLength: Int?
        /// JSON Schema `maxLength`: the longest string the server accepts.
        var maxLength: Int?
        /// JSON Schema `minimum` and `maximum` of an integer.
        var minimum: Int?
        var maximum: Int?
        /// JSON Schema `pattern` (ECMA-262).
        var pattern: String?
        /// `null` is accepted too (OpenAPI 3.1: `type: [T, "null"]`).
        var nullable = false
        /// `x-error-codes`: the stable numeric code table (``APIErrorCode``).
        var errorCodes: [ErrorCodeEntry]?

        /// The array element schema, boxed because a struct cannot contain itself.
        final class Items: Encodable, Sendable {
            let schema: Schema
            init(_ schema: Schema) { self.schema = schema }
            func encode(to encoder: any Encoder) throws { try schema.encode(to: encoder) }
        }

        struct ErrorCodeEntry: Encodable, Sendable {
            var code: Int
            var error: String
            var httpStatus: Int
            var messageKey: String
            var description: String

            enum CodingKeys: String, CodingKey {
                case code, error, description
                case httpStatus = "http_status"
                case messageKey = "message_key"
            }
        }

        static func ref(_ name: String) -> Schema {
            Schema(ref: "#/components/schemas/\(name)")
        }

        static func string(_ description: String? = nil, format: String? = nil, values: [String]? = nil) -> Schema {
            Schema(type: "string", format: format, description: description, stringValues: values)
        }

        static func integer(_ description: String? = nil) -> Schema {
            Schema(type: "integer", description: description)
        }

        static func array(of element: Schema, _ description: String? = nil) -> Schema {
            Schema(type: "array", description: description, items: Items(element))
        }

        static func object(
            _ properties: [String: Schema], required: [String] = [], description: String? = nil
        ) -> Schema {
            Schema(
                type: "object", description: description, properties: properties,
                required: required.isEmpty ? nil : required)
        }

        enum CodingKeys: String, CodingKey {
            case ref = "$ref"
            case type, format, description, properties, required, items, additionalProperties, minLength, maxLength
            case minimum, maximum, pattern
            case values = "enum"
            case errorCodes = "x-error-codes"
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(ref, forKey: .ref)
            if let type, nullable {
                try container.encode([type, "null"], forKey: .type)
            } else {
                try container.encodeIfPresent(type, forKey: .type)
            }
            try container.encodeIfPresent(minLength, forKey: .minLength)
            try container.encodeIfPresent(maxLength, forKey: .maxLength)
            try container.encodeIfPresent(minimum, forKey: .minimum)
            try container.encodeIfPresent(maximum, forKey: .maximum)
            try container.encodeIfPresent(pattern, forKey: .pattern)
            try container.encodeIfPresent(format, forKey: .format)
            try container.encodeIfPresent(description, forKey: .description)
            try container.encodeIfPresent(properties, forKey: .properties)
            try container.encodeIfPresent(required, forKey: .required)
            try container.encodeIfPresent(items, forKey: .items)
            try container.encodeIfPresent(additionalProperties, forKey: .additionalProperties)
            if let stringValues { try container.encode(stringValues, forKey: .values) }
            if let integerValues { try container.encode(integerValues, forKey: .values) }
            try container.encodeIfPresent(errorCodes, forKey: .errorCodes)
        }
    }
}
