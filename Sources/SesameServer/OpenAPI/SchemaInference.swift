import Foundation

extension OpenAPI.Schema {
    /// The JSON schema of a wire type, read off its own `Encodable` output, so the document
    /// names exactly the members the server sends and the SDK decodes.
    ///
    /// - Parameters:
    ///   - full: a value with every optional member set (it shows every member and its type).
    ///   - minimal: a value with every optional member `nil`; the members it still encodes are
    ///     the `required` ones.
    static func inferred<Value: Encodable>(
        full: Value, minimal: Value, description: String
    ) -> OpenAPI.Schema {
        var schema = infer(json(full), minimal: json(minimal))
        schema.description = description
        return schema
    }

    /// The schema of a request body: what the server refuses is refused here too, so a client
    /// generated from the document (or a fuzzer) sends nothing the schema allows and the server
    /// rejects — a required string may not be empty or only white space (`minLength: 1`,
    /// a `pattern` that needs one non-space character), and an optional member
    /// may be `null` (the server reads `null` as absent).
    func requestBody() -> OpenAPI.Schema {
        var schema = self
        let required = Set(schema.required ?? [])
        schema.properties = schema.properties.map { properties in
            Dictionary(
                uniqueKeysWithValues: properties.map { name, property in
                    var property = property.requestBody()
                    if required.contains(name) {
                        if property.type == "string" {
                            // The server trims required strings: one that is only white space is missing.
                            property.minLength = 1
                            property.pattern = "^[\\s\\S]*\\S[\\s\\S]*$"
                        }
                        property.constrain(member: name)
                    } else {
                        property.nullable = true
                    }
                    return (name, property)
                })
        }
        return schema
    }

    /// The formats the server checks, by member name: emailed codes are six digits, addresses
    /// are email addresses, a new password is at least the policy's minimum.
    private mutating func constrain(member name: String) {
        switch name {
        case "code":
            pattern = "^[0-9]{6}$"
        case "email", "new_email":
            format = "email"
        case "new_password", "password":
            minLength = PasswordPolicy().minimumLength
        case "public_key":
            // 32 bytes in unpadded base64url (the last character carries 2 bits that must be 0).
            pattern = "^[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]$"
        default:
            break
        }
    }

    private static func json(_ value: some Encodable) -> Any {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(value),
            let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        else { return [String: Any]() }
        return object
    }

    private static func infer(_ value: Any, minimal: Any?) -> OpenAPI.Schema {
        switch value {
        case let object as [String: Any]:
            let minimalObject = minimal as? [String: Any]
            var properties: [String: OpenAPI.Schema] = [:]
            for (key, member) in object {
                properties[key] = infer(member, minimal: minimalObject?[key])
            }
            let required = minimalObject.map { Array($0.keys).sorted() } ?? []
            return .object(properties, required: required)
        case let array as [Any]:
            let minimalArray = minimal as? [Any] ?? []
            let elements = array.enumerated().map { index, element in
                infer(element, minimal: index < minimalArray.count ? minimalArray[index] : minimalArray.first)
            }
            return .array(of: merge(elements))
        case is String:
            return .string()
        case let number as NSNumber:
            // JSON booleans parse as NSNumber with the `char` type encoding.
            if String(cString: number.objCType) == "c" { return OpenAPI.Schema(type: "boolean") }
            let double = number.doubleValue
            return double.rounded() == double ? .integer() : OpenAPI.Schema(type: "number")
        default:
            return OpenAPI.Schema()
        }
    }

    /// One element schema for arrays whose elements differ (e.g. RSA and EC keys): the union of
    /// their members; required only what every element requires.
    private static func merge(_ schemas: [OpenAPI.Schema]) -> OpenAPI.Schema {
        guard var merged = schemas.first else { return OpenAPI.Schema() }
        for schema in schemas.dropFirst() {
            if let properties = schema.properties {
                merged.properties = (merged.properties ?? [:]).merging(properties) { first, _ in first }
            }
            let required = Set(merged.required ?? []).intersection(schema.required ?? [])
            merged.required = required.isEmpty ? nil : required.sorted()
        }
        return merged
    }
}
