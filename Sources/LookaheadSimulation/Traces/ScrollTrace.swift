/// A scroll trace: the content offset over time.
///
/// Samples are in ascending time order, the first at time zero; between two
/// samples the offset is interpolated linearly, after the last it stays put.
public struct ScrollTrace: Sendable, Hashable {
    /// One observed content offset.
    public struct Sample: Sendable, Hashable {
        public var time: Duration
        public var offset: Double

        public init(time: Duration, offset: Double) {
            self.time = time
            self.offset = offset
        }
    }

    public private(set) var samples: [Sample]

    /// Creates a trace.
    ///
    /// - Precondition: at least one sample, times ascending (not necessarily
    ///   strictly), offsets finite.
    public init(samples: [Sample]) {
        precondition(!samples.isEmpty, "ScrollTrace needs at least one sample")
        for index in samples.indices.dropFirst() {
            precondition(
                samples[index].time >= samples[index - 1].time,
                "ScrollTrace: sample \(index) goes back in time")
        }
        precondition(samples.allSatisfy { $0.offset.isFinite }, "ScrollTrace: offsets must be finite")
        self.samples = samples
    }

    /// The time of the last sample.
    public var duration: Duration { samples[samples.count - 1].time }

    /// The offset at `time`, interpolated.
    ///
    /// - Complexity: O(log samples).
    public func offset(at time: Duration) -> Double {
        if time <= samples[0].time { return samples[0].offset }
        if time >= duration { return samples[samples.count - 1].offset }
        var low = 0
        var high = samples.count - 1
        while high - low > 1 {
            let middle = (low + high) / 2
            if samples[middle].time <= time { low = middle } else { high = middle }
        }
        let a = samples[low]
        let b = samples[high]
        let span = (b.time - a.time) / .nanoseconds(1)
        guard span > 0 else { return b.offset }
        let fraction = ((time - a.time) / .nanoseconds(1)) / span
        return a.offset + (b.offset - a.offset) * fraction
    }
}
