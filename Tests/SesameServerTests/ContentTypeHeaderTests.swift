import Testing
@testable import SesameServer

/// `Content-Type` media-type matching (RFC 9110 §8.3.1), which every token request runs.
@Suite("Content-Type header media type")
struct ContentTypeHeaderTests {
    @Test(
        "case, parameters and surrounding whitespace do not matter",
        arguments: [
            "application/json", "Application/JSON", "application/json; charset=utf-8", " \tapplication/json\t ;x=1",
            "APPLICATION/JSON;",
        ])
    func matches(header: String) {
        #expect(ContentTypeHeader.matches(header, "application/json"))
    }

    @Test(
        "another type, a prefix, an extension or a missing header does not match",
        arguments: [
            nil, "", "application/jsonx", "application/jso", "xapplication/json", "application/ json", "text/plain",
            "application/json+x", "application\u{0}json",
        ] as [String?])
    func refuses(header: String?) {
        #expect(!ContentTypeHeader.matches(header, "application/json"))
    }
}
