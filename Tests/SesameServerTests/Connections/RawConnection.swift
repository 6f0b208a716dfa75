import Foundation
import NIOPosix

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A plain TCP connection to the test server for the connection-management tests: write bytes
/// when the test says, read with a timeout, and tell a closed connection from a silent one.
/// Blocking socket calls run on a thread pool of their own (never the cooperative pool).
final class RawConnection: Sendable {
    private static let pool: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: 8)
        pool.start()
        return pool
    }()

    let fd: Int32

    struct Failure: Error, CustomStringConvertible { var description: String }

    /// What a read saw.
    enum ReadResult: Equatable {
        case data(Data)
        /// The server closed the connection (EOF or reset).
        case closed
        /// Nothing arrived within the timeout; the connection is still open.
        case silent
    }

    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket() failed") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(fd)
            throw Failure(description: "connect() failed")
        }
    }

    deinit { close(fd) }

    /// Ends the connection from this side (both directions), as a client that leaves.
    func hangUp() { shutdown(fd, Int32(SHUT_RDWR)) }

    /// Writes `text` (no SIGPIPE when the server has closed; `false` then).
    @discardableResult
    func write(_ text: String) -> Bool { write(Data(text.utf8)) }

    @discardableResult
    func write(_ data: Data) -> Bool {
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = send(fd, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
                guard written > 0 else { return false }
                offset += written
            }
            return true
        }
    }

    /// Reads what arrives within `timeout` seconds.
    func read(timeout: TimeInterval) async throws -> ReadResult {
        let fd = fd
        return try await Self.pool.runIfActive {
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, Int32(timeout * 1000)) > 0 else { return .silent }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = recv(fd, &chunk, chunk.count, 0)
            return count > 0 ? .data(Data(chunk[0..<count])) : .closed
        }
    }

    /// Reads until the server closes or `timeout` passes; the bytes, and whether it closed.
    func readUntilClosed(timeout: TimeInterval) async throws -> (data: Data, closed: Bool) {
        let deadline = Date().addingTimeInterval(timeout)
        var received = Data()
        while Date() < deadline {
            switch try await read(timeout: max(0.01, deadline.timeIntervalSinceNow)) {
            case .data(let data): received.append(data)
            case .closed: return (received, true)
            case .silent: return (received, false)
            }
        }
        return (received, false)
    }

    /// The status and the body of the first response in `data`.
    static func response(_ data: Data) -> (status: Int, headers: String, body: Data)? {
        guard let separator = data.range(of: Data("\r\n\r\n".utf8)) else { return nil }
        let head = String(decoding: data[..<separator.lowerBound], as: UTF8.self)
        let parts = head.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, let status = Int(parts[1]) else { return nil }
        return (status, head, Data(data[separator.upperBound...]))
    }
}
