import Foundation
import SesameProtocol

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

#if os(macOS) || os(Linux) || os(FreeBSD) || os(OpenBSD)

/// A listening TCP socket on a loopback address that answers one kind of request, the browser's
/// redirect (RFC 8252 §7.3), without any networking framework: the SDK's package carries no
/// SwiftNIO, and a desktop app's sign-in needs one request read and one small page written.
///
/// One thread of its own accepts connections (`poll(2)` with a short timeout; it waits on the
/// socket, never on async work) and owns the socket: ``close()`` asks it to stop (`shutdown(2)`
/// wakes it at once on Linux, the timeout within 100 ms elsewhere), the thread closes the socket,
/// and ``closeAndWait()`` returns once it has, so the port is free again and no descriptor number
/// is reused while the thread could still read it. Each connection is read until
/// the end of its request head (at most ``maximumHeadLength`` bytes, 5 s), answered with what
/// `respond` returns, and closed: `Connection: close`, one request per connection, as a browser
/// opening a redirect needs. The socket binds the loopback address only, never `0.0.0.0`.
final class LoopbackListener: Sendable {
    /// The longest request head read; a longer one is answered 431.
    static let maximumHeadLength = 16 * 1024
    /// The port bound (the kernel's choice when port 0 was asked for).
    let port: Int
    private let fd: Int32
    private let state = LockedState(State())

    private struct State {
        /// Whether the accepting thread runs (it then closes the socket).
        var serving = false
        var closing = false
        /// Set before the socket is closed: no `shutdown(2)` after it.
        var closed = false
        /// Set once the socket is closed and the port free.
        var released = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    /// A request's method and target (`/callback?code=…`), as read from its request line.
    struct Request: Sendable {
        let method: String
        let target: String
    }

    /// What to answer, and whether the listener then stops (the one redirect has come).
    struct Response: Sendable {
        var status: Int
        var reason: String
        var html: String
        var headers: [(String, String)] = []
        var closesListener = false
    }

    private init(socket: Int32, port: Int) {
        fd = socket
        self.port = port
    }

    /// Binds `host` (`127.0.0.1` or `::1`) on `port` (0: any free one) and listens.
    static func bind(host: String, port: Int) throws(SesameError) -> LoopbackListener {
        let ipv6 = host.contains(":")
        let fd = systemSocket(ipv6 ? AF_INET6 : AF_INET)
        guard fd >= 0 else { throw failure("socket", host: host, port: port) }
        var yes: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var bound: Int32 = -1
        var actual = port
        if ipv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = in_port_t(UInt16(port).bigEndian)
            address.sin6_addr = in6addr_loopback
            #if canImport(Darwin)
                address.sin6_len = UInt8(MemoryLayout<sockaddr_in6>.size)
            #endif
            bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { systemBind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
            if bound == 0 {
                var length = socklen_t(MemoryLayout<sockaddr_in6>.size)
                _ = withUnsafeMutablePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
                }
                actual = Int(UInt16(bigEndian: address.sin6_port))
            }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            #if canImport(Darwin)
                address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
            #endif
            bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { systemBind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            if bound == 0 {
                var length = socklen_t(MemoryLayout<sockaddr_in>.size)
                _ = withUnsafeMutablePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
                }
                actual = Int(UInt16(bigEndian: address.sin_port))
            }
        }
        guard bound == 0, listen(fd, 16) == 0 else {
            let error = failure("bind", host: host, port: port)
            _ = systemClose(fd)
            throw error
        }
        return LoopbackListener(socket: fd, port: actual)
    }

    /// Starts the accepting thread: each request gets `respond`'s answer until one closes the
    /// listener or ``close()`` is called.
    func serve(_ respond: @escaping @Sendable (Request) -> Response) {
        let start = state.withLock { state -> Bool in
            guard !state.closing, !state.serving else { return false }
            state.serving = true
            return true
        }
        guard start else { return }
        let thread = Thread { [self] in
            while !state.withLock({ $0.closing }) {
                var waiting = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&waiting, 1, 100) > 0, !state.withLock({ $0.closing }) else { continue }
                let connection = accept(fd, nil, nil)
                guard connection >= 0 else { continue }
                let response = Self.answer(connection, respond)
                _ = systemClose(connection)
                if response?.closesListener == true { close() }
            }
            finish()
        }
        thread.name = "sesame-loopback-redirect"
        thread.start()
    }

    /// Stops listening. The accepting thread closes the socket within 100 ms (at once on
    /// Linux); without one it is closed here.
    func close() {
        let ownedHere = state.withLock { state -> Bool in
            guard !state.closing else { return false }
            state.closing = true
            // Under the lock: the thread marks `closed` under it before it closes the socket,
            // so this never shuts down a descriptor number another socket has since been given.
            if state.serving, !state.closed { _ = shutdown(fd, Int32(SHUT_RDWR)) }  // wakes poll(2) on Linux
            return !state.serving
        }
        if ownedHere { finish() }
    }

    /// ``close()``, returning once the socket is closed and the port free.
    func closeAndWait() async {
        close()
        await withCheckedContinuation { continuation in
            let done = state.withLock { state -> Bool in
                if state.released { return true }
                state.waiters.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }

    /// Closes the socket once and wakes whoever waits for it.
    private func finish() {
        state.withLock { $0.closed = true }
        _ = systemClose(fd)
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.released = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    deinit { close() }

    /// Reads one request head from `connection`, writes the answer, returns it (`nil`: nothing
    /// usable was read, the connection is just closed).
    private static func answer(_ connection: Int32, _ respond: (Request) -> Response) -> Response? {
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        _ = setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        _ = setsockopt(connection, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        #if canImport(Darwin)
            var noSignal: Int32 = 1  // a browser that hangs up must not raise SIGPIPE
            _ = setsockopt(connection, SOL_SOCKET, SO_NOSIGPIPE, &noSignal, socklen_t(MemoryLayout<Int32>.size))
        #endif
        var head = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        let end: [UInt8] = [13, 10, 13, 10]
        while !head.contains(subsequence: end) {
            let count = read(connection, &buffer, buffer.count)
            guard count > 0 else { return nil }
            head.append(contentsOf: buffer[0..<count])
            if head.count > maximumHeadLength {
                write(Response(status: 431, reason: "Request Header Fields Too Large", html: ""), to: connection)
                return nil
            }
        }
        let line = head.prefix { $0 != 13 && $0 != 10 }
        let parts = line.split(separator: 32, omittingEmptySubsequences: true)
        guard parts.count == 3, let method = String(bytes: parts[0], encoding: .ascii),
            let target = String(bytes: parts[1], encoding: .utf8)
        else {
            write(Response(status: 400, reason: "Bad Request", html: ""), to: connection)
            return nil
        }
        let response = respond(Request(method: method, target: target))
        write(response, to: connection)
        return response
    }

    private static func write(_ response: Response, to connection: Int32) {
        var text = "HTTP/1.1 \(response.status) \(response.reason)\r\n"
        let body = Array(response.html.utf8)
        let headers = [
            ("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-store"), ("Referrer-Policy", "no-referrer"),
            ("X-Content-Type-Options", "nosniff"),
            ("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'"),
            ("Connection", "close"), ("Content-Length", String(body.count)),
        ] + response.headers
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        let bytes = Array((text + "\r\n").utf8) + body
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { systemSend(connection, $0.baseAddress!, $0.count) }
            guard count > 0 else { return }
            sent += count
        }
    }

    private static func failure(_ call: String, host: String, port: Int) -> SesameError {
        let reason = String(cString: strerror(errno))
        let address = host.contains(":") ? "[\(host)]" : host
        let advice = port == 0
            ? "check that the loopback interface is up"
            : "another program may be using port \(port); close it, or register a redirect URI with another port"
        return .technical(.platform("cannot listen on \(address):\(port) (\(call): \(reason)); \(advice)"))
    }
}

// The C calls, by names this type's own `close()` does not shadow.
private func systemSocket(_ family: Int32) -> Int32 {
    #if canImport(Glibc)
        Glibc.socket(family, Int32(SOCK_STREAM.rawValue), 0)
    #else
        Darwin.socket(family, SOCK_STREAM, 0)
    #endif
}

private func systemBind(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
    #if canImport(Glibc)
        Glibc.bind(fd, address, length)
    #else
        Darwin.bind(fd, address, length)
    #endif
}

private func systemClose(_ fd: Int32) -> Int32 {
    #if canImport(Glibc)
        Glibc.close(fd)
    #else
        Darwin.close(fd)
    #endif
}

private func systemSend(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
        Glibc.send(fd, bytes, count, Int32(MSG_NOSIGNAL))
    #else
        Darwin.send(fd, bytes, count, 0)
    #endif
}

extension Array where Element == UInt8 {
    fileprivate func contains(subsequence: [UInt8]) -> Bool {
        guard count >= subsequence.count else { return false }
        for start in 0...(count - subsequence.count) where self[start..<(start + subsequence.count)].elementsEqual(subsequence) {
            return true
        }
        return false
    }
}

#endif
