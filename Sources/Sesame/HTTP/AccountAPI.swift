import Foundation
import SesameProtocol

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Builds the requests of Sesame's account APIs and reads their answers (the contract in
/// `docs/first-party-and-accounts.md`): JSON bodies with snake_case keys
/// (the `SesameProtocol` types), under `issuer + "/api/"`. Sending, and the bearer token for
/// the protected ones, is the ``SesameClient``'s job.
struct AccountAPI: Sendable {
    /// The provider's issuer; the APIs live below it.
    let issuer: URL

    /// `issuer/api/<segments...>`, each segment percent-encoded (device ids are app-chosen).
    func url(_ segments: String...) -> URL { url(segments) }

    /// A request without a body.
    func request(_ method: String, _ segments: String...) -> URLRequest {
        var request = URLRequest(url: url(segments))
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        return request
    }

    /// A request with `body` as JSON. Bodies may hold passwords or codes: never logged.
    func request<Body: Encodable>(_ method: String, _ segments: String..., json body: Body)
        throws(SesameError) -> URLRequest
    {
        var request = URLRequest(url: url(segments))
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        do {
            request.httpBody = try JSONEncoder().encode(body)
        } catch {
            throw .technical(.platform("could not encode the \(segments.joined(separator: "/")) request body"))
        }
        return request
    }

    private func url(_ segments: [String]) -> URL {
        var text = issuer.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        text += "/api"
        for segment in segments {
            text += "/" + (segment.addingPercentEncoding(withAllowedCharacters: Self.segmentCharacters) ?? segment)
        }
        return URL(string: text) ?? issuer
    }

    /// RFC 3986 §3.3 `pchar` minus `/`: unreserved and sub-delims plus `:` and `@`.
    private static let segmentCharacters = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@")

    /// A 2xx JSON answer as `T`; anything else as the ``SesameError`` for the API error it
    /// carries (field errors in ``SesameError/fieldErrors``).
    static func decode<T: Decodable>(_ type: T.Type, _ data: Data, _ response: HTTPURLResponse, what: String)
        throws(SesameError) -> T
    {
        try check(data, response, what: what)
        return try ProviderHTTP.decode(type, data: data, response: response, what: what)
    }

    /// Succeeds for any 2xx answer (204 and `{}` bodies alike).
    static func check(_ data: Data, _ response: HTTPURLResponse, what: String) throws(SesameError) {
        guard (200..<300).contains(response.statusCode) else {
            if response.statusCode == 401, let challenge = StepUpChallenge(response) {
                throw .stepUpRequired(challenge.apiError)
            }
            throw ProviderHTTP.error(data: data, status: response.statusCode, what: what)
        }
    }
}

/// A JSON body with no members (`{}`), for POSTs that carry nothing.
struct EmptyJSONBody: Codable, Sendable {}
