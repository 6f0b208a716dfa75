import SesameTesting
import Foundation
import SesameProtocol
import Testing
@testable import SesameServer

/// RFC 6749 §5.2 / §4.1.2.1: `error_description` is `%x20-21 / %x23-5B / %x5D-7E` only.
@Suite("error_description character set")
struct ErrorDescriptionTextTests {
    @Test("the allowed set is exactly printable ASCII without quote and backslash")
    func allowedSet() {
        for value in UInt32(0)...0x2FF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let expected = (0x20...0x7E).contains(value) && value != 0x22 && value != 0x5C
            #expect(ErrorDescriptionText.isAllowed(scalar) == expected, "U+\(String(value, radix: 16))")
        }
    }

    @Test("the byte check of a whole text agrees with the scalar set, for every scalar up to U+2FF and multi-byte text")
    func validityByBytes() {
        var samples = (UInt32(0)...0x2FF).compactMap(Unicode.Scalar.init).map { "a\(Character($0))b" }
        samples += ["", "日本語", "🙂", "e\u{301}", "\u{FEFF}x", "abc def", "\u{7F}"]
        for text in samples {
            #expect(ErrorDescriptionText.isValid(text) == text.unicodeScalars.allSatisfy(ErrorDescriptionText.isAllowed), "\(text.debugDescription)")
        }
    }

    @Test("sanitizing replaces every forbidden character and keeps compliant text as is")
    func sanitizing() {
        let compliant = "redirect_uri is required; see RFC 6749 (section 4.1.3) 'x' ~!#$%&*+,-./:;<=>?@[]^_`{|}"
        #expect(ErrorDescriptionText.sanitized(compliant) == compliant)
        #expect(ErrorDescriptionText.sanitized("RFC 6749 §4.1.3") == "RFC 6749 section 4.1.3")
        #expect(ErrorDescriptionText.sanitized(#"scope "a\b" "#) == "scope 'a/b' ")
        #expect(ErrorDescriptionText.sanitized("a\tb\nc") == "a b c")
        #expect(ErrorDescriptionText.sanitized("café ≤ 5 – “x” …") == "caf? <= 5 - 'x' ...")
        for sample in ["\u{0}\u{7F}", "日本語", "🙂", "\u{200B}", #"\"\\"#, "§§"] {
            #expect(ErrorDescriptionText.isValid(ErrorDescriptionText.sanitized(sample)), "\(sample)")
        }
    }

    @Test("the JSON error body built from an EndpointFailure never carries a forbidden character")
    func errorBody() throws {
        let failure = EndpointFailure(.invalidGrant, "bad \"quote\" \\ back § café\nline 🙂")
        let body = APIErrorMiddleware.body(of: failure, errorID: "id", userMessage: "Bitte melden Sie sich an. äöü")
        let description = try #require(body.errorDescription)
        #expect(ErrorDescriptionText.isValid(description))
        #expect(description == "bad 'quote' / back section caf? line ?")
        // The localized end-user message is not an error_description and keeps its letters.
        #expect(body.errorUserMessage == "Bitte melden Sie sich an. äöü")

        let json = try JSONSerialization.jsonObject(with: try JSONEncoder().encode(body)) as? [String: Any]
        let encoded = try #require(json?["error_description"] as? String)
        #expect(ErrorDescriptionText.isValid(encoded))

        let defaulted = APIErrorMiddleware.body(of: EndpointFailure(.serverError), errorID: "id", userMessage: nil)
        #expect(defaulted.errorDescription == APIErrorCode.serverError.defaultDescription)
    }

    @Test("every default description is compliant")
    func defaultDescriptions() {
        for code in APIErrorCode.allCases {
            #expect(ErrorDescriptionText.isValid(code.defaultDescription), "\(code)")
            #expect(ErrorDescriptionText.isValid(APIErrorMiddleware.body(of: EndpointFailure(code), errorID: "i", userMessage: nil).errorDescription ?? ""))
        }
    }

    @Test("the server's own error description literals are compliant (source scan)")
    func sourceLiterals() throws {
        // The description literals given to EndpointFailure and ProviderFailure, the
        // authorization validator's fail(_:_:), the client authenticator's failure(_:) and
        // MFAFailure in the provider's and the server's sources. The sanitizer would fix them on
        // the way out; this keeps the texts clean.
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources")
        // Interpolations are runtime input (sanitized centrally); they are removed first.
        let interpolation = /\\\((?:[^()]|\([^()]*\))*\)/
        let call = /(?:(?:Endpoint|Provider)Failure\(\s*[\w.]+,|\bfail\(\s*\.\w+,|\bfailure\(|methodUnavailable\()\s*"((?:[^"\\\n]|\\.)*)"/
        var checked = 0
        for module in ["SesameServer", "SesameProvider"] {
            let root = sources.appendingPathComponent(module)
            let files = try #require(FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil))
            for case let url as URL in files where url.pathExtension == "swift" {
                let text = try String(contentsOf: url, encoding: .utf8).replacing(interpolation, with: "")
                for match in text.matches(of: call) {
                    let literal = String(match.output.1)
                    #expect(ErrorDescriptionText.isValid(literal), "\(url.lastPathComponent): \(literal)")
                    checked += 1
                }
            }
        }
        #expect(checked > 50)
    }

    @Test("over HTTP: input echoed into error_description is sanitized in JSON and in redirects")
    func overHTTP() async throws {
        try await withTestServer { server in
            let browser = server.client()
            let token = try await browser.postForm(
                "/token", ["grant_type": "fancy \"grant\" \\ § é", "client_id": Fixtures.nativeApp])
            #expect(token.status == 400)
            let error = try token.json(APIError.self)
            #expect(error.error == "unsupported_grant_type")
            let description = try #require(error.errorDescription)
            #expect(ErrorDescriptionText.isValid(description))
            #expect(description.contains("fancy 'grant' / section ?"))

            let flow = OAuthFlow(browser: browser)
            let redirect = try await flow.authorize(.init(), extra: ["scope": "openid \"adm\\in\"é"])
            #expect(redirect.status == 303)
            #expect(redirect.locationQuery["error"] == "invalid_scope")
            let redirected = try #require(redirect.locationQuery["error_description"])
            #expect(ErrorDescriptionText.isValid(redirected))

            // The code grant's redirect_uri message no longer contains "§".
            let attempt = OAuthFlow.Attempt()
            let code = try await flow.signIn(attempt)
            let missingRedirect = try await browser.postForm(
                "/token",
                [
                    "grant_type": "authorization_code", "code": code, "client_id": Fixtures.nativeApp,
                    "code_verifier": attempt.pkce.verifier,
                ])
            let missing = try missingRedirect.json(APIError.self)
            #expect(missing.error == "invalid_request")
            #expect(missing.errorDescription == "redirect_uri is required (RFC 6749 section 4.1.3).")
        }
    }
}
