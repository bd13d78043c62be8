internal import DequeModule

/// How fast the reader moves through the content over the last few seconds,
/// rests included.
///
/// A feed is mostly read: a short drag, a pause of seconds, another drag. The
/// speed of the current frame says nothing about that rhythm (it is zero
/// during the pause); the pace — points travelled divided by the time they
/// took, pauses counted — says how much content the reader will want within
/// a load's time, which is what a resting window must hold. It is fed the
/// frames' times and offsets, so it stays pure: no clock is read.
///
/// - Complexity: O(1) amortized per frame, O(frames in `span`) memory.
package struct ReadingPace: Sendable, Hashable {
    /// How far back the pace looks.
    public var span: Duration
    /// The shortest history the pace divides by: a reader seen for less has
    /// shown too little to be called fast.
    public var minimumSpan: Duration

    struct Sample: Hashable, Sendable {
        var time: Duration
        /// The distance travelled, in points, from the first frame seen to this one.
        var travelled: Double
    }

    /// The frames within `span`, oldest first; the first one may be older,
    /// kept as the start of the span.
    var samples: Deque<Sample> = []
    var lastOffset: Double?

    /// Creates a pace over the last `span` (6 s by default: a couple of
    /// read-and-scroll cycles), dividing by at least `minimumSpan` (1 s).
    public init(span: Duration = .seconds(6), minimumSpan: Duration = .seconds(1)) {
        precondition(span > .zero, "ReadingPace: span must be positive")
        precondition(minimumSpan >= .zero && minimumSpan <= span, "ReadingPace: minimumSpan must be in 0…span")
        self.span = span
        self.minimumSpan = minimumSpan
    }

    /// Records a frame showing the content at `offset` at `time`. Frames
    /// older than the last one recorded (a clock reset) restart the history.
    /// - Complexity: O(1) amortized.
    public mutating func record(offset: Double, at time: Duration) {
        if let last = samples.last, time < last.time {
            samples.removeAll()
            lastOffset = nil
        }
        let step = lastOffset.map { abs(offset - $0) } ?? 0
        let travelled = (samples.last?.travelled ?? 0) + step
        lastOffset = offset
        samples.append(Sample(time: time, travelled: travelled))
        // Keep one sample at or before the span's start, so the pace covers all of it.
        while samples.count > 2, time - samples[1].time >= span {
            samples.removeFirst()
        }
    }

    /// Whether the frames recorded reach back a whole `span`: before that,
    /// the pace has seen too little of the reader to size a window by (a
    /// list opens at rest, and its first gesture may be a fling).
    /// - Complexity: O(1).
    public var coversSpan: Bool {
        guard let first = samples.first, let last = samples.last else { return false }
        return last.time - first.time >= span
    }

    /// Points per second over the last `span`, rests included; 0 before
    /// any movement.
    /// - Complexity: O(1).
    public var pointsPerSecond: Double {
        guard let first = samples.first, let last = samples.last else { return 0 }
        let elapsed = max(last.time - first.time, minimumSpan) / .seconds(1)
        guard elapsed > 0 else { return 0 }
        return (last.travelled - first.travelled) / elapsed
    }
}
