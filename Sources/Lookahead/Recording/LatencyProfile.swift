/// The load durations an app observed, for `lookahead tune --latency-profile`.
///
/// The simulator models latency as a log-normal distribution; a profile
/// recorded on devices lets `tune` fit it to what the app's users actually
/// see rather than to a guess. Feed it from the fetcher's events and encode
/// it with `JSONEncoder` to export it:
///
/// ```swift
/// var profile = LatencyProfile()
/// for await event in fetcher.events() { profile.record(event) }
/// try JSONEncoder().encode(profile).write(to: url)
/// ```
///
/// It keeps the most recent ``capacity`` successful loads (a ring), so its
/// memory is bounded however long the app runs. Nothing leaves the device
/// unless the app exports it.
public struct LatencyProfile: Codable, Hashable, Sendable {
    /// The format's version, written so a later reader can tell.
    public var version = 1
    /// The most durations kept.
    public private(set) var capacity: Int
    /// The durations kept, in milliseconds, in the order of the ring (not of time once it wrapped).
    public private(set) var loadMilliseconds: [Double] = []
    /// Successful loads recorded in all, kept or not.
    public private(set) var recordedCount = 0

    /// The default capacity: 10,000 loads (80 KB).
    public static let defaultCapacity = 10_000

    /// Creates an empty profile keeping at most `capacity` durations (at least 1).
    public init(capacity: Int = LatencyProfile.defaultCapacity) {
        precondition(capacity >= 1, "LatencyProfile: capacity \(capacity) must be at least 1")
        self.capacity = capacity
    }

    /// Records one load's duration; negative ones (a clock that jumped) are ignored.
    ///
    /// - Complexity: O(1).
    public mutating func record(_ duration: Duration) {
        let milliseconds =
            Double(duration.components.seconds) * 1_000
            + Double(duration.components.attoseconds) / 1e15
        guard milliseconds >= 0, milliseconds.isFinite else { return }
        if loadMilliseconds.count < capacity {
            loadMilliseconds.append(milliseconds)
        } else {
            loadMilliseconds[recordedCount % capacity] = milliseconds
        }
        recordedCount += 1
    }

    /// Records a successful load from a fetcher's event stream; other events
    /// are ignored (a cancelled or failed load's duration is not its latency).
    public mutating func record<Key>(_ event: FetchEvent<Key>) {
        guard case .succeeded(_, let duration) = event else { return }
        record(duration)
    }

    /// The duration below which a fraction `quantile` (0...1) of the kept loads took, or `nil` if none is kept.
    ///
    /// - Complexity: O(n log n).
    public func milliseconds(atQuantile quantile: Double) -> Double? {
        guard !loadMilliseconds.isEmpty else { return nil }
        let sorted = loadMilliseconds.sorted()
        let clamped = min(max(quantile, 0), 1)
        return sorted[min(sorted.count - 1, Int((clamped * Double(sorted.count)).rounded(.down)))]
    }
}
