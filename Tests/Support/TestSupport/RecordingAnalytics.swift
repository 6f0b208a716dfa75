import Sesame
import Synchronization

/// Collects the SDK's analytics events (``SesameClient/setAnalytics(_:)``) for a test to read.
public final class RecordingAnalytics: SesameAnalytics {
    public let events = Mutex<[AnalyticsEvent]>([])

    public init() {}

    public func record(_ event: AnalyticsEvent) { events.withLock { $0.append(event) } }

    /// The events' names, in order.
    public var names: [String] { events.withLock { $0.map(\.name.rawValue) } }
}
