/// A scroll trace: the content offset over time, and, for a feed of
/// carousels, the horizontal offset of the carousel under the finger.
///
/// Samples are in ascending time order, the first at time zero; between two
/// samples the offset is interpolated linearly, after the last it stays put.
/// A sample may also say where the carousel of one row stands (its
/// ``Sample/row`` and ``Sample/rowOffset``): a row's horizontal offset is
/// interpolated between the samples that name it, 0 before the first and
/// unchanged after the last, so a row swiped once keeps its place when the
/// feed scrolls on, as a collection view's content offset does.
public struct ScrollTrace: Sendable, Hashable {
    /// One observed content offset.
    public struct Sample: Sendable, Hashable {
        public var time: Duration
        public var offset: Double
        /// The row whose carousel the finger is on, if any.
        public var row: Int?
        /// That carousel's horizontal content offset, in points (set with `row`).
        public var rowOffset: Double?

        /// Creates a sample; `row` and `rowOffset` go together (both or neither).
        public init(time: Duration, offset: Double, row: Int? = nil, rowOffset: Double? = nil) {
            self.time = time
            self.offset = offset
            self.row = row
            self.rowOffset = rowOffset
        }
    }

    public private(set) var samples: [Sample]
    /// The indices of the samples naming each row, ascending.
    private var rowSamples: [Int: [Int]]

    /// Creates a trace.
    ///
    /// - Precondition: at least one sample, times ascending (not necessarily
    ///   strictly), offsets finite; a sample's row not negative and given
    ///   with a finite row offset.
    public init(samples: [Sample]) {
        precondition(!samples.isEmpty, "ScrollTrace needs at least one sample")
        for index in samples.indices.dropFirst() {
            precondition(
                samples[index].time >= samples[index - 1].time,
                "ScrollTrace: sample \(index) goes back in time")
        }
        precondition(samples.allSatisfy { $0.offset.isFinite }, "ScrollTrace: offsets must be finite")
        var rowSamples: [Int: [Int]] = [:]
        for (index, sample) in samples.enumerated() where sample.row != nil || sample.rowOffset != nil {
            guard let row = sample.row, row >= 0, let rowOffset = sample.rowOffset, rowOffset.isFinite else {
                preconditionFailure("ScrollTrace: sample \(index) needs a row >= 0 and a finite row offset together")
            }
            rowSamples[row, default: []].append(index)
        }
        self.samples = samples
        self.rowSamples = rowSamples
    }

    /// The time of the last sample.
    public var duration: Duration { samples[samples.count - 1].time }

    /// Whether some sample gives a carousel's horizontal offset.
    public var hasRowOffsets: Bool { !rowSamples.isEmpty }

    /// The rows some sample gives a horizontal offset for, ascending.
    public var scrolledRows: [Int] { rowSamples.keys.sorted() }

    /// The offset at `time`, interpolated.
    ///
    /// - Complexity: O(log samples).
    public func offset(at time: Duration) -> Double {
        Self.interpolate(samples.indices, at: time) { samples[$0] }.offset
    }

    /// The horizontal offset of row `row`'s carousel at `time`: interpolated
    /// between the samples naming the row, 0 before the first, the last one's after it.
    ///
    /// - Complexity: O(log samples of the row).
    public func rowOffset(ofRow row: Int, at time: Duration) -> Double {
        guard let indices = rowSamples[row] else { return 0 }
        if time < samples[indices[0]].time { return 0 }
        let point = Self.interpolate(indices.indices, at: time) {
            Sample(time: samples[indices[$0]].time, offset: samples[indices[$0]].rowOffset!)
        }
        return point.offset
    }

    /// The sample at `time` among the points `point(0..<count)` (ascending
    /// in time), interpolated linearly; the first before them, the last after.
    private static func interpolate(
        _ indices: Range<Int>, at time: Duration, point: (Int) -> Sample
    ) -> (time: Duration, offset: Double) {
        let first = point(indices.lowerBound)
        let last = point(indices.upperBound - 1)
        if time <= first.time { return (time, first.offset) }
        if time >= last.time { return (time, last.offset) }
        var low = indices.lowerBound
        var high = indices.upperBound - 1
        while high - low > 1 {
            let middle = (low + high) / 2
            if point(middle).time <= time { low = middle } else { high = middle }
        }
        let a = point(low)
        let b = point(high)
        let span = (b.time - a.time) / .nanoseconds(1)
        guard span > 0 else { return (time, b.offset) }
        let fraction = ((time - a.time) / .nanoseconds(1)) / span
        return (time, a.offset + (b.offset - a.offset) * fraction)
    }
}
