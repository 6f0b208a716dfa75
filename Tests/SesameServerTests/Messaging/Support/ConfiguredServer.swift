import Foundation
@testable import SesameServer

/// Like ``withTestServer(_:)``, with a chance to change the ``ServerConfiguration`` first
/// (e.g. an SMTP relay). Seeded with ``Fixtures``; the data directory is removed afterwards.
func withConfiguredServer<T>(
    _ configure: @escaping @Sendable (inout ServerConfiguration) -> Void, _ body: (TestServer) async throws -> T
) async throws -> T {
    try await withTestServer(configure: configure, body)
}
