import HummingbirdCore
import Logging
import NIOCore
import NIOSSL

/// A server child channel that puts TLS in front of `base` (Hummingbird's HTTP/1.1 channel),
/// with the context ``ServerTLS`` holds at the moment the connection arrives: what lets a
/// reloaded certificate serve new connections while open ones finish on the old one. Like
/// HummingbirdTLS's `TLSChannel`, whose context is fixed at start.
struct ReloadableTLSChannel<Base: ServerChildChannel>: ServerChildChannel {
    typealias Value = Base.Value
    let base: Base
    let tls: ServerTLS

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(tls.handler())
        }.flatMap {
            base.setup(channel: channel, logger: logger)
        }
    }

    func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}

extension ReloadableTLSChannel: HTTPChannelHandler where Base: HTTPChannelHandler {
    var responder: HTTPChannelHandler.Responder { base.responder }
}
