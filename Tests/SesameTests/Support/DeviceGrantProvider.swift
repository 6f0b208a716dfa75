import Foundation
import SesameProtocol
import Synchronization
import TestSupport

@testable import Sesame

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The ``FakeProvider`` with the device authorization grant (RFC 8628) in front of it: a
/// `device_authorization_endpoint` in discovery, a scripted device authorization response, and
/// scripted answers to the polls of `/token`. Everything else goes to the fake provider.
final class DeviceGrantProvider: HTTPTransport, Sendable {
    /// What the next poll of `/token` answers.
    enum Answer: Sendable {
        case pending, slowDown, denied, expired
        /// The tokens, issued by the fake provider (ID token without `nonce`).
        case approve
        /// Another refusal, e.g. 400 `invalid_grant`.
        case error(status: Int, error: String)
        /// No answer: the connection failed (`URLError.networkConnectionLost`).
        case lost
    }

    /// A request the device made to the device authorization endpoint or to `/token`.
    struct Sent: Sendable {
        let path: String
        let form: [String: String]
        let dpopProof: String?
        let authorization: String?
        let at: Date
    }

    struct Script: Sendable {
        var advertisesEndpoint = true
        /// Extra members of the discovery document (e.g. DPoP algorithms).
        var discoveryExtras: [String: String] = [:]
        /// The device authorization response body, as JSON.
        var authorization: String = DeviceGrantProvider.response()
        var authorizationStatus = 200
        var answers: [Answer] = []
        var sent: [Sent] = []
    }

    let fake: FakeProvider
    private let script: Mutex<Script>

    init(_ fake: FakeProvider, script: Script = Script()) {
        self.fake = fake
        self.script = Mutex(script)
    }

    func with<T>(_ body: (inout Script) -> T) -> T { script.withLock { body(&$0) } }

    /// The polls of `/token` sent so far.
    var polls: [Sent] { with { $0.sent.filter { $0.path == "/token" } } }
    /// The device authorization requests sent so far.
    var authorizations: [Sent] { with { $0.sent.filter { $0.path == "/device_authorization" } } }

    /// A device authorization response body; `nil` members are left out.
    static func response(
        deviceCode: String? = "dc-secret", userCode: String? = "bdfhjklm",
        verificationURI: String? = "https://id.test/device",
        verificationURIComplete: String? = "https://id.test/device?user_code=BDFHJKLM",
        expiresIn: String? = "600", interval: String? = nil
    ) -> String {
        var members: [String] = []
        func string(_ name: String, _ value: String?) {
            guard let value else { return }
            let encoded = String(decoding: try! JSONEncoder().encode(value), as: UTF8.self)
            members.append("\"\(name)\": \(encoded)")
        }
        string("device_code", deviceCode)
        string("user_code", userCode)
        string("verification_uri", verificationURI)
        string("verification_uri_complete", verificationURIComplete)
        // Numbers verbatim, so a test can send 1e30 or a string.
        if let expiresIn { members.append("\"expires_in\": \(expiresIn)") }
        if let interval { members.append("\"interval\": \(interval)") }
        return "{" + members.joined(separator: ", ") + "}"
    }

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let url = request.url!
        let form = FormURLEncoding.decode(String(decoding: request.httpBody ?? Data(), as: UTF8.self)) ?? [:]
        switch url.path {
        case "/.well-known/openid-configuration":
            let (data, response) = try await fake.send(request)
            var document = try JSONSerialization.jsonObject(with: data) as! [String: Any]
            let (advertises, extras) = with { ($0.advertisesEndpoint, $0.discoveryExtras) }
            if advertises { document["device_authorization_endpoint"] = "\(fake.issuer)/device_authorization" }
            for (key, value) in extras { document[key] = [value] }
            return (try JSONSerialization.data(withJSONObject: document), response)
        case "/device_authorization":
            record(request, form: form)
            let (status, body) = with { ($0.authorizationStatus, $0.authorization) }
            return raw(status, Data(body.utf8))
        case "/token" where form["grant_type"] == GrantType.deviceCode.rawValue:
            record(request, form: form)
            let answer = with { $0.answers.isEmpty ? Answer.pending : $0.answers.removeFirst() }
            switch answer {
            case .pending: return json(400, ["error": "authorization_pending"])
            case .slowDown: return json(400, ["error": "slow_down"])
            case .denied: return json(400, ["error": "access_denied"])
            case .expired: return json(400, ["error": "expired_token"])
            case .error(let status, let error): return json(status, ["error": error])
            case .approve: return json(200, fake.issueTokens(nonce: nil))
            case .lost: throw URLError(.networkConnectionLost)
            }
        default:
            return try await fake.send(request)
        }
    }

    private func record(_ request: URLRequest, form: [String: String]) {
        let sent = Sent(
            path: request.url!.path, form: form, dpopProof: request.value(forHTTPHeaderField: "DPoP"),
            authorization: request.value(forHTTPHeaderField: "Authorization"), at: fake.clock.now())
        with { $0.sent.append(sent) }
    }

    private func json(_ status: Int, _ body: [String: Any]) -> (Data, HTTPURLResponse) {
        raw(status, try! JSONSerialization.data(withJSONObject: body))
    }

    private func raw(_ status: Int, _ data: Data) -> (Data, HTTPURLResponse) {
        let response = HTTPURLResponse(
            url: URL(string: fake.issuer)!, statusCode: status, httpVersion: "HTTP/1.1",
            headerFields: ["Content-Type": "application/json"])!
        return (data, response)
    }
}

/// The device's waits, recorded instead of slept: each moves the test's clock forward by the
/// wait, so expiry is reached without waiting.
final class RecordingSleeper: Sendable {
    private let waits = Mutex<[TimeInterval]>([])
    let clock: ManualClock

    init(clock: ManualClock) { self.clock = clock }

    var recorded: [TimeInterval] { waits.withLock { $0 } }

    var sleep: DeviceSignIn.Sleep {
        { [self] seconds in
            waits.withLock { $0.append(seconds) }
            clock.advance(by: seconds)
        }
    }
}

