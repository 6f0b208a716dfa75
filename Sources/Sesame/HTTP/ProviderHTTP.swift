import Foundation
import SesameProtocol

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends requests to the provider and turns answers into values or ``SesameError``s, one
/// mapping for every endpoint:
/// 2xx → decoded body (or `technical(.malformedResponse)`); 401, `invalid_client`,
/// `invalid_grant` → `authenticationFailed`; `insufficient_authorization` → `stepUpRequired`;
/// other 4xx → `requestFailed`; 5xx → `technical(.server)`; no response → `technical(.network)`.
struct ProviderHTTP: Sendable {
    let transport: any HTTPTransport

    func send(_ request: URLRequest) async throws(SesameError) -> (Data, HTTPURLResponse) {
        do {
            return try await transport.send(request)
        } catch let error as SesameError {
            throw error
        } catch {
            let host = request.url?.host ?? "the server"
            throw .technical(.network("could not reach \(host): \(error.localizedDescription)"))
        }
    }

    /// Sends `request` and decodes a 2xx JSON body as `T`.
    func json<T: Decodable>(_ type: T.Type, for request: URLRequest, what: String)
        async throws(SesameError) -> (T, HTTPURLResponse)
    {
        let (data, response) = try await send(request)
        return (try Self.decode(type, data: data, response: response, what: what), response)
    }

    static func decode<T: Decodable>(_ type: T.Type, data: Data, response: HTTPURLResponse, what: String)
        throws(SesameError) -> T
    {
        guard (200..<300).contains(response.statusCode) else {
            throw error(data: data, status: response.statusCode, what: what)
        }
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch {
            throw .technical(.malformedResponse("the \(what) response is not the expected JSON"))
        }
    }

    /// Maps a non-2xx answer to the SDK error (docs/errors.md).
    static func error(data: Data, status: Int, what: String) -> SesameError {
        let apiError = try? JSONDecoder().decode(APIError.self, from: data)
        if (300..<400).contains(status) {
            return .technical(.malformedResponse("the \(what) endpoint answered with a redirect (HTTP \(status)); redirects are not followed"))
        }
        if status >= 500 {
            return .technical(.server(status: status, apiError))
        }
        guard let apiError else {
            return .technical(.malformedResponse("the \(what) endpoint answered HTTP \(status) without an error body"))
        }
        switch apiError.error {
        case "invalid_client", "invalid_grant", "invalid_token":
            return .authenticationFailed(apiError, status: status)
        case "insufficient_authorization":
            return .stepUpRequired(apiError)
        default:
            return status == 401
                ? .authenticationFailed(apiError, status: status)
                : .requestFailed(apiError, status: status)
        }
    }
}
