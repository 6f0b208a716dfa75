import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// SIGINT and SIGTERM as an `AsyncStream`, without blocking a thread (`DispatchSourceSignal`).
/// Create it **before** starting the work a signal should stop, so no early signal is missed.
struct ShutdownSignals: Sendable {
    let stream: AsyncStream<String>

    init() {
        let (stream, continuation) = AsyncStream.makeStream(of: String.self)
        let queue = DispatchQueue(label: "sesame.signals")
        var sources: [any DispatchSourceSignal] = []
        for (number, name) in [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM")] {
            #if canImport(Darwin)
                // kqueue delivers signals alongside (and below) sigaction: ignore the default.
                signal(number, SIG_IGN)
            #endif
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { continuation.yield(name) }
            source.resume()
            sources.append(source)
        }
        let retained = RetainedSources(sources)
        continuation.onTermination = { _ in retained.cancel() }
        self.stream = stream
    }

    /// The name of the first signal, or `nil` when the waiting task is cancelled.
    func next() async -> String? {
        var iterator = stream.makeAsyncIterator()
        return await iterator.next()
    }
}

/// Keeps the dispatch sources alive as long as the stream; cancels them with it.
private final class RetainedSources: Sendable {
    // DispatchSource is thread-safe; the array itself is never mutated.
    nonisolated(unsafe) private let sources: [any DispatchSourceSignal]

    init(_ sources: [any DispatchSourceSignal]) { self.sources = sources }

    func cancel() { for source in sources { source.cancel() } }
}
