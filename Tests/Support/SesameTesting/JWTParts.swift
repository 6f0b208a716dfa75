import Foundation
import SesameProtocol

/// Decodes a JWT's header and payload without verifying (tests verify with the key ring).
public enum JWTParts {
    public static func header(_ token: String) -> [String: Any] { part(token, 0) }
    public static func payload(_ token: String) -> [String: Any] { part(token, 1) }

    private static func part(_ token: String, _ index: Int) -> [String: Any] {
        let parts = token.split(separator: ".")
        guard parts.count == 3, let data = Base64URL.decode(String(parts[index])),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return [:] }
        return object
    }
}
