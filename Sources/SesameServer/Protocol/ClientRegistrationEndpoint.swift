import Foundation
import HTTPTypes
import Hummingbird
import SesameProtocol

/// Dynamic client registration (RFC 7591 §3) and the client configuration endpoint (RFC 7592
/// §2), routed only when the operator opened registration (``ClientRegistrationPolicy``):
/// - `POST /register`: register (201, the client information response of §3.2.1); with
///   `--registration token`, the operator's initial access token as `Authorization: Bearer`;
/// - `GET`, `PUT`, `DELETE /register/{client_id}` with the registration access token as
///   `Authorization: Bearer`: read, replace the metadata, delete (204).
/// Answers carry `Cache-Control: no-store` (§3.2.1); a refused token is 401 with
/// `WWW-Authenticate: Bearer error="invalid_token"` (RFC 6750 §3).
struct ClientRegistrationEndpoint: Sendable {
    let registrations: ClientRegistrations

    func register(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let metadata = try await Self.metadata(request, context)
        let answer = try await Self.bearerRefusals {
            try await registrations.register(
                metadata, initialAccessToken: BearerAuthentication.bearerToken(request), origin: RequestOrigin(context))
        }
        context.annotations.record(clientID: answer.clientID)
        return JSONResponse.make(answer, status: .created)
    }

    func read(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let clientID = try Self.clientID(context)
        return JSONResponse.make(
            try await Self.bearerRefusals {
                try await registrations.read(clientID: clientID, registrationAccessToken: BearerAuthentication.bearerToken(request))
            })
    }

    func update(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let clientID = try Self.clientID(context)
        let metadata = try await Self.metadata(request, context)
        return JSONResponse.make(
            try await Self.bearerRefusals {
                try await registrations.update(
                    clientID: clientID, registrationAccessToken: BearerAuthentication.bearerToken(request), metadata,
                    origin: RequestOrigin(context))
            })
    }

    func delete(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let clientID = try Self.clientID(context)
        try await Self.bearerRefusals {
            try await registrations.delete(
                clientID: clientID, registrationAccessToken: BearerAuthentication.bearerToken(request), origin: RequestOrigin(context))
        }
        return JSONResponse.noContent()
    }

    /// The body as client metadata; `invalid_client_metadata` naming a member of the wrong type.
    private static func metadata(_ request: Request, _ context: SesameRequestContext) async throws -> ClientRegistrationRequest {
        let data = try await JSONRequest.body(of: request, context: context)
        do {
            return try JSONDecoder().decode(ClientRegistrationRequest.self, from: data)
        } catch let error as DecodingError where !error.isAtRoot {
            throw EndpointFailure(
                .invalidClientMetadata, "\(JSONRequest.violation(error).field) has the wrong type (RFC 7591 section 2).")
        } catch {
            throw EndpointFailure(.invalidClientMetadata, "The body is not a JSON object of client metadata (RFC 7591 section 2).")
        }
    }

    private static func clientID(_ context: SesameRequestContext) throws -> String {
        guard let id = context.parameters.get("client_id"), !id.isEmpty, id.count <= 256 else {
            throw EndpointFailure(.invalidRequest, "The path names no client.")
        }
        return id
    }

    /// Runs `body`, answering a refused token as RFC 6750 §3 asks.
    @discardableResult
    private static func bearerRefusals<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let failure as ProviderFailure where failure.code == .invalidToken {
            throw BearerAuthentication.invalidToken(failure.description ?? "The token is refused.")
        }
    }
}

extension DecodingError {
    /// Whether the error is about the whole value (not a JSON object at all) rather than a member.
    fileprivate var isAtRoot: Bool {
        switch self {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context),
            .dataCorrupted(let context):
            context.codingPath.isEmpty
        @unknown default: true
        }
    }
}
