import Foundation
import Hummingbird
import NIOCore
import SesameProtocol

/// Reading `application/x-www-form-urlencoded` bodies (RFC 6749 §3.2, RFC 7009 §2.1,
/// RFC 7662 §2.1) and query strings (RFC 6749 §3.1): a repeated parameter that Sesame reads is
/// refused, a parameter it does not know is ignored (``RecognizedParameters``).
enum FormRequest {
    /// The decoded body; throws `invalid_request` for another media type, a malformed body or
    /// a repeated parameter.
    static func body(of request: Request, context: SesameRequestContext) async throws -> [String: String] {
        guard ContentTypeHeader.matches(request.headers[.contentType], "application/x-www-form-urlencoded") else {
            throw EndpointFailure(
                .invalidRequest, "Send the parameters as application/x-www-form-urlencoded.")
        }
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: context.maxUploadSize)
        } catch is NIOTooManyBytesError {
            throw EndpointFailure(
                .invalidRequest, "The body is larger than \(context.maxUploadSize / 1024) KiB; send fewer or shorter parameters.",
                status: .contentTooLarge)
        }
        let text = String(buffer: buffer)
        guard let parameters = FormURLEncoding.decode(text, recognized: RecognizedParameters.all) else {
            throw EndpointFailure(
                .invalidRequest, "The body is not valid form encoding or repeats a parameter.")
        }
        return parameters
    }

    /// The decoded query string; `nil` when malformed or a parameter repeats.
    static func query(of request: Request) -> [String: String]? {
        FormURLEncoding.decode(request.uri.query ?? "", recognized: RecognizedParameters.all)
    }
}
