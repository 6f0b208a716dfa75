import SesameTesting
import Foundation
import SesameProtocol
import Testing
@testable import SesameServer

/// `request`, `request_uri` and `registration` get the errors OIDC Core defines for them
/// (§6.1, §6.2, §7.2.1), sent back to the client like the other authorization errors.
@Suite("Authorization request: unsupported OIDC parameters")
struct UnsupportedRequestParameterTests {
    static let cases: [(parameter: String, value: String, error: String, code: APIErrorCode)] = [
        ("request", "eyJhbGciOiJub25lIn0.eyJzY29wZSI6Im9wZW5pZCJ9.", "request_not_supported", .requestNotSupported),
        ("request_uri", "https://client.example.org/request.jwt", "request_uri_not_supported", .requestURINotSupported),
        ("registration", #"{"logo_uri":"https://client.example.org/logo.png"}"#, "registration_not_supported",
         .registrationNotSupported),
    ]

    @Test("each is redirected back with its OIDC error, state and iss, and no code")
    func redirectedErrors() async throws {
        try await withTestServer { server in
            let flow = OAuthFlow(browser: server.client())
            for item in Self.cases {
                let attempt = OAuthFlow.Attempt()
                let response = try await flow.authorize(attempt, extra: [item.parameter: item.value])
                #expect(response.status == 303, "\(item.parameter)")
                #expect(response.location?.hasPrefix(Fixtures.nativeRedirect + "?") == true)
                #expect(response.locationQuery["error"] == item.error)
                #expect(response.locationQuery["state"] == attempt.state)
                #expect(response.locationQuery["iss"] == server.issuer)
                #expect(response.locationQuery["code"] == nil)
                let description = try #require(response.locationQuery["error_description"])
                #expect(description.contains(item.parameter))
                #expect(ErrorDescriptionText.isValid(description))
                #expect(item.code.error == item.error)
            }
        }
    }

    @Test("the client and redirect URI are checked first: an unknown client gets the error page")
    func clientCheckedFirst() async throws {
        try await withTestServer { server in
            var flow = OAuthFlow(browser: server.client())
            flow.clientID = "nobody"
            let response = try await flow.authorize(.init(), extra: ["request_uri": "https://evil.example.com/r"])
            #expect(response.status == 400)
            #expect(response.location == nil)

            flow.clientID = Fixtures.nativeApp
            flow.redirectURI = "https://evil.example.com/cb"
            let badRedirect = try await flow.authorize(.init(), extra: ["request": "x.y.z"])
            #expect(badRedirect.status == 400)
            #expect(badRedirect.location == nil)
        }
    }

    @Test("an empty value counts as absent (RFC 6749 §3.1)")
    func emptyValueIgnored() async throws {
        try await withTestServer { server in
            let flow = OAuthFlow(browser: server.client())
            let page = try await flow.authorize(.init(), extra: ["request": "", "request_uri": "", "registration": ""])
            #expect(page.status == 200)
        }
    }

    @Test("discovery says request and request_uri are not supported and offers no registration endpoint")
    func discoveryConsistent() async throws {
        try await withTestServer { server in
            let response = try await server.client().get("/.well-known/openid-configuration")
            let object = response.jsonObject
            #expect(object["request_parameter_supported"] as? Bool == false)
            #expect(object["request_uri_parameter_supported"] as? Bool == false)
            #expect(object["registration_endpoint"] == nil)
        }
    }

    @Test("the codes are new, distinct and documented")
    func codes() {
        #expect(APIErrorCode.requestNotSupported.rawValue == 1022)
        #expect(APIErrorCode.requestURINotSupported.rawValue == 1023)
        #expect(APIErrorCode.registrationNotSupported.rawValue == 1024)
        #expect(APIErrorCode.requestURINotSupported.messageKey == "error.request_uri_not_supported")
        #expect(Set(APIErrorCode.allCases.map(\.rawValue)).count == APIErrorCode.allCases.count)
        for item in Self.cases { #expect(item.code.httpStatus == 400) }
    }
}
