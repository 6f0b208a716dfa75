import Foundation
import HTTPTypes
import Hummingbird

/// JSON responses. Token and error responses carry `Cache-Control: no-store` and
/// `Pragma: no-cache` (RFC 6749 §5.1).
enum JSONResponse {
    /// One encoder with the default options for every response (Foundation's `JSONEncoder` is
    /// `Sendable`; an encoder made per response was part of an error answer's cost, issue #50).
    private static let encoder = JSONEncoder()

    /// 204 with `Cache-Control: no-store`: the bodiless answer of an API that changed something.
    static func noContent() -> Response {
        Response(status: .noContent, headers: [.cacheControl: "no-store"])
    }

    static func make<Body: Encodable>(
        _ body: Body, status: HTTPResponse.Status = .ok, noStore: Bool = true
    ) -> Response {
        let data = (try? encoder.encode(body)) ?? Data("{}".utf8)
        return make(data: data, status: status, noStore: noStore)
    }

    static func make(data: Data, status: HTTPResponse.Status = .ok, noStore: Bool = true) -> Response {
        make(buffer: ByteBuffer(bytes: data), status: status, noStore: noStore)
    }

    /// A response whose body is `buffer` itself: a document encoded once is shared, not copied.
    static func make(buffer: ByteBuffer, status: HTTPResponse.Status = .ok, noStore: Bool = true) -> Response {
        var headers: HTTPFields = [.contentType: "application/json"]
        if noStore {
            headers[.cacheControl] = "no-store"
            headers[.pragma] = "no-cache"
        }
        return Response(
            status: status, headers: headers,
            body: ResponseBody(byteBuffer: buffer))
    }
}
