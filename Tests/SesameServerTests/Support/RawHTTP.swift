import SesameTesting
import Foundation
import NIOPosix
import SesameProtocol

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A one-shot HTTP/1.1 exchange over a plain socket, for the one case URLSession on Linux
/// cannot report: a `401` carrying `WWW-Authenticate: Basic` (FoundationNetworking turns it
/// into a credential prompt and never delivers the response). The blocking socket work runs on
/// a thread pool of its own: never on the cooperative pool, and never on
/// `NIOThreadPool.singleton`, which the server under test uses for password hashing (a
/// blocked exchange there could wait for a hash that has no thread left to run on).
enum RawHTTP {
    private static let pool: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: 4)
        pool.start()
        return pool
    }()

    static func send(
        host: String = "127.0.0.1", port: Int, method: String, path: String, headers: [String: String],
        body: Data
    ) async throws -> TestResponse {
        try await pool.runIfActive {
            try exchange(host: host, port: port, method: method, path: path, headers: headers, body: body)
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private static func exchange(
        host: String, port: Int, method: String, path: String, headers: [String: String], body: Data
    ) throws -> TestResponse {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket() failed") }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, host, &address.sin_addr)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw Failure(description: "connect() failed") }

        var head = "\(method) \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\nConnection: close\r\n"
        head += "Content-Length: \(body.count)\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        let request = Data(head.utf8) + body
        try request.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                guard written > 0 else { throw Failure(description: "write() failed") }
                offset += written
            }
        }
        var received = Data()
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(fd, &chunk, chunk.count)
            if count <= 0 { break }
            received.append(contentsOf: chunk[0..<count])
        }
        return try parse(received)
    }

    private static func parse(_ data: Data) throws -> TestResponse {
        guard let separator = data.range(of: Data("\r\n\r\n".utf8)) else {
            throw Failure(description: "incomplete HTTP response")
        }
        let head = String(decoding: data[..<separator.lowerBound], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
            throw Failure(description: "bad status line")
        }
        var headers: [String: String] = [:]
        var setCookies: [String] = []
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if name == "set-cookie" { setCookies.append(value) }
            headers[name] = headers[name].map { $0 + ", " + value } ?? value
        }
        var body = Data(data[separator.upperBound...])
        if headers["transfer-encoding"]?.lowercased() == "chunked" { body = dechunk(body) }
        return TestResponse(status: status, headers: headers, setCookies: setCookies, body: body)
    }

    private static func dechunk(_ data: Data) -> Data {
        var result = Data()
        var rest = data[...]
        while let lineEnd = rest.range(of: Data("\r\n".utf8)) {
            let sizeText = String(decoding: rest[..<lineEnd.lowerBound], as: UTF8.self)
            guard let size = Int(sizeText.split(separator: ";")[0], radix: 16), size > 0 else { break }
            let start = lineEnd.upperBound
            let end = rest.index(start, offsetBy: size)
            result.append(rest[start..<end])
            rest = rest[rest.index(end, offsetBy: 2)...]
        }
        return result
    }
}

extension HTTPTestClient {
    /// POSTs a form over ``RawHTTP`` (for responses that challenge with HTTP Basic).
    func rawPostForm(_ path: String, _ form: [String: String], headers: [String: String] = [:]) async throws
        -> TestResponse
    {
        try await RawHTTP.send(
            port: baseURL.port ?? 80, method: "POST", path: path,
            headers: ["Content-Type": "application/x-www-form-urlencoded"].merging(headers) { $1 },
            body: Data(FormURLEncoding.encode(form).utf8))
    }
}

