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
///
/// An HTTP 429 `proof_of_work_required` answer with a `challenge` (docs/abuse-protection.md) is
/// solved by ``challenges`` and the request sent once more with the solution, transparently to
/// the caller; the answer to that retry is final.
///
/// A request to a host the configuration pins (``SesameConfiguration/pinning``) goes only to a
/// transport that enforces those pins, over https; a pin mismatch is reported to the app's
/// analytics and thrown, never retried.
struct ProviderHTTP: Sendable {
    let transport: any HTTPTransport
    /// Solves abuse challenges; `nil`: a challenge is an error like any other 429.
    var challenges: (any ChallengeSolving)?
    /// The configured pins, which the transport must enforce.
    var pinning: CertificatePinning = .none
    /// Where a pin mismatch is reported; `nil`: nowhere.
    var analytics: AnalyticsDispatcher?

    func send(_ request: URLRequest) async throws(SesameError) -> (Data, HTTPURLResponse) {
        let (data, response) = try await sendOnce(request)
        guard response.statusCode == 429, let challenges,
            request.value(forHTTPHeaderField: ProofOfWorkSolution.headerName) == nil,
            let challenge = (try? JSONDecoder().decode(APIError.self, from: data))?.challenge
        else { return (data, response) }
        let solution = try await challenges.solve(challenge)
        var retry = request
        retry.setValue(solution.headerValue, forHTTPHeaderField: ProofOfWorkSolution.headerName)
        return try await sendOnce(retry)
    }

    private func sendOnce(_ request: URLRequest) async throws(SesameError) -> (Data, HTTPURLResponse) {
        try checkPinning(request)
        do {
            return try await transport.send(request)
        } catch let error as SesameError {
            if let mismatch = error.pinMismatch {
                analytics?.record(
                    .certificatePinMismatch,
                    ["host": mismatch.host, "presented_pins": mismatch.presented.map(\.description).joined(separator: " ")])
            }
            throw error
        } catch {
            let host = request.url?.host ?? "the server"
            throw .technical(.network("could not reach \(host): \(error.localizedDescription)"))
        }
    }

    /// Refuses, before anything is sent, a request to a pinned host over plain http or through a
    /// transport that does not enforce the host's pins (fail closed).
    private func checkPinning(_ request: URLRequest) throws(SesameError) {
        let now = Date()
        guard !pinning.isEmpty, let url = request.url, let host = url.host, let entry = pinning.entry(for: host, at: now)
        else { return }
        guard url.scheme?.lowercased() == "https" else {
            throw .invalidConfiguration("\(host) is pinned, but the request to it is plain http; pinned hosts are reached over https only.")
        }
        guard transport.certificatePinning?.entry(for: host, at: now) == entry else {
            throw .invalidConfiguration(
                "the configuration pins \(host), but the transport \(type(of: transport)) does not enforce those pins; leave the transport out (URLSessionTransport pins on Apple platforms) or pass NIOTransport(pinning:) from the SesameNIOTransport product (Linux).")
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
            if status == 401 {
                // RFC 6749 §5.2: a refused client authentication (on Linux the body of a 401
                // with WWW-Authenticate does not reach the SDK; see URLSessionTransport).
                return .authenticationFailed(
                    APIError(
                        error: "invalid_client",
                        errorDescription: "the provider refused the client's credentials at the \(what) endpoint; check client_id and its secret or key"),
                    status: status)
            }
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
