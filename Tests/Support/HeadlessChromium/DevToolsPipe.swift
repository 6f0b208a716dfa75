import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The Chrome DevTools Protocol over `--remote-debugging-pipe`: JSON messages separated by a NUL
/// byte, written to the browser's descriptor 3 and read from its descriptor 4. Commands are
/// matched to their answers by `id`; everything without an `id` is an event, kept for
/// ``events(method:)``. Reading is driven by a dispatch source, so no thread waits on the pipe.
public actor DevToolsPipe {
    /// A command the browser refused.
    public struct CommandError: Error, CustomStringConvertible {
        public let description: String
    }

    /// One event: its method, the flat session it came from, and its parameters.
    public struct Event: Sendable {
        public let method: String
        public let sessionID: String?
        public let params: JSONValue
    }

    private let writeDescriptor: Int32
    private let reader: any DispatchSourceRead
    private var nextID = 1
    private var pending: [Int: CheckedContinuation<JSONValue, any Error>] = [:]
    private var received: [Event] = []
    private var closed = false

    /// Takes ownership of the two descriptors: `write` goes to the browser, `read` comes from it.
    init(write: Int32, read: Int32) {
        writeDescriptor = write
        let flags = fcntl(read, F_GETFL)
        _ = fcntl(read, F_SETFL, flags | O_NONBLOCK)
        let (chunks, sink) = AsyncStream.makeStream(of: Data?.self)
        let source = DispatchSource.makeReadSource(fileDescriptor: read, queue: DispatchQueue(label: "devtools.pipe"))
        source.setEventHandler {
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let count = Glibc_read(read, &buffer, buffer.count)
                if count > 0 {
                    sink.yield(Data(buffer[0..<count]))
                } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
                    sink.yield(nil)
                    source.cancel()
                    return
                } else if errno == EAGAIN {
                    return
                }
            }
        }
        source.setCancelHandler { Glibc_close(read) }
        reader = source
        source.resume()
        Task { [weak self] in
            var buffer = Data()
            for await chunk in chunks {
                guard let chunk else {
                    await self?.finish()
                    return
                }
                buffer.append(chunk)
                while let end = buffer.firstIndex(of: 0) {
                    let message = buffer[buffer.startIndex..<end]
                    buffer = Data(buffer[(end + 1)...])
                    await self?.handle(Data(message))
                }
            }
        }
    }

    /// Sends a command (to the browser, or to a page's flat session) and returns its `result`.
    @discardableResult
    public func send(_ method: String, _ params: JSONValue = [:], session: String? = nil) async throws -> JSONValue {
        guard !closed else { throw CommandError(description: "\(method): the browser has gone away") }
        let id = nextID
        nextID += 1
        var message: [String: JSONValue] = ["id": .number(Double(id)), "method": .string(method), "params": params]
        if let session { message["sessionId"] = .string(session) }
        var data = try JSONEncoder().encode(JSONValue.object(message))
        data.append(0)
        return try await withCheckedThrowingContinuation { continuation in
            pending[id] = continuation
            let written = data.withUnsafeBytes { bytes -> Bool in
                var offset = 0
                while offset < bytes.count {
                    let count = write(writeDescriptor, bytes.baseAddress! + offset, bytes.count - offset)
                    if count < 0 && errno == EINTR { continue }
                    guard count > 0 else { return false }
                    offset += count
                }
                return true
            }
            if !written {
                pending[id] = nil
                continuation.resume(throwing: CommandError(description: "\(method): cannot write to the browser"))
            }
        }
    }

    /// Events received so far, optionally only those of one method.
    public func events(method: String? = nil, session: String? = nil) -> [Event] {
        received.filter { (method == nil || $0.method == method) && (session == nil || $0.sessionID == session) }
    }

    /// Closes the write side; the browser exits when it sees the end of its input.
    public func close() {
        guard !closed else { return }
        closed = true
        Glibc_close(writeDescriptor)
        reader.cancel()
        failPending("the browser was closed")
    }

    private func handle(_ data: Data) {
        guard let message = try? JSONDecoder().decode(JSONValue.self, from: data) else { return }
        if let id = message["id"]?.number.map(Int.init), let continuation = pending.removeValue(forKey: id) {
            if let error = message["error"] {
                continuation.resume(throwing: CommandError(description: error["message"]?.string ?? "\(error)"))
            } else {
                continuation.resume(returning: message["result"] ?? .null)
            }
        } else if let method = message["method"]?.string {
            received.append(Event(method: method, sessionID: message["sessionId"]?.string, params: message["params"] ?? .null))
        }
    }

    private func finish() {
        closed = true
        failPending("the browser closed its DevTools pipe")
    }

    private func failPending(_ reason: String) {
        for continuation in pending.values { continuation.resume(throwing: CommandError(description: reason)) }
        pending.removeAll()
    }
}

// `read`/`close` are shadowed inside the actor by its own members.
private func Glibc_read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int { read(fd, buffer, count) }
private func Glibc_close(_ fd: Int32) { _ = close(fd) }
