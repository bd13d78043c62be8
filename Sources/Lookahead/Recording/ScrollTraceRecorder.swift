/// Records how a person scrolls an app's list, as a trace the simulator replays.
///
/// A team tunes prefetching for *their* app by recording real scrolling on a
/// device, exporting it and running `lookahead tune --trace` on it. The
/// recorder keeps what a scroll view reports each frame — the time, the
/// vertical content offset and, on the frame a drag ends in a fling, the
/// offset UIKit says it will come to rest at — plus a description of the
/// screen and the content, in a ring of bounded size: when it is full the
/// oldest samples make room, so a long session keeps its most recent part.
///
/// It is off unless an app makes one, and nothing leaves the device unless
/// the app exports ``csv()`` itself.
///
/// ```swift
/// var recorder = ScrollTraceRecorder()
/// recorder.describe(viewport: Size(width: 390, height: 844), itemCount: 1_000, itemSize: Size(width: 390, height: 120))
/// // each frame:
/// recorder.record(offset: scrollView.contentOffset.y, at: now)
/// // when a drag ends in a fling:
/// recorder.record(offset: scrollView.contentOffset.y, at: now, targetOffset: target.y)
/// try recorder.csv().write(to: url, atomically: true, encoding: .utf8)
/// ```
///
/// The CSV is the simulator's trace format (`time_ms,offset`) with a third
/// column, `target_offset`, empty but on the frames a drag ended, and
/// `# key=value` metadata lines before the header that `lookahead tune`
/// reads back: `viewport`, `items`, `item-size` (a uniform layout) or
/// `item-height` (the mean of a varied one), and `dropped` (samples the ring
/// let go of).
public struct ScrollTraceRecorder: Sendable {
    /// One recorded frame.
    public struct Sample: Hashable, Sendable {
        /// When the frame was shown, from any fixed origin (the CSV counts from the first kept sample).
        public var time: Duration
        /// The vertical content offset, in points.
        public var offset: Double
        /// Where a fling that began on this frame will come to rest, if the app said so.
        public var targetOffset: Double?

        /// Creates a sample.
        @inlinable
        public init(time: Duration, offset: Double, targetOffset: Double? = nil) {
            self.time = time
            self.offset = offset
            self.targetOffset = targetOffset
        }
    }

    /// The default capacity: ten minutes of frames at 60 Hz (about 17 MB at most in CSV).
    public static let defaultCapacity = 36_000

    /// The most samples kept.
    public let capacity: Int
    /// The visible area's size, if described.
    public private(set) var viewport: Size?
    /// How many items the list has, if described.
    public private(set) var itemCount: Int?
    /// Every item's size in a uniform layout, if described.
    public private(set) var itemSize: Size?
    /// The mean item height of a varied layout, if described.
    public private(set) var meanItemHeight: Double?
    /// Samples let go of because the ring was full.
    public private(set) var droppedCount = 0

    private var ring: [Sample] = []
    /// Where the oldest sample is once the ring is full.
    private var oldest = 0

    /// Creates an empty recorder.
    ///
    /// - Parameter capacity: the most samples kept (at least 1); the oldest
    ///   make room for new ones beyond it.
    public init(capacity: Int = ScrollTraceRecorder.defaultCapacity) {
        precondition(capacity >= 1, "ScrollTraceRecorder: capacity \(capacity) must be at least 1")
        self.capacity = capacity
    }

    /// Describes the screen and a uniform layout, for the trace's metadata.
    ///
    /// - Parameters:
    ///   - viewport: the scroll view's visible size, in points.
    ///   - itemCount: the number of items in the list.
    ///   - itemSize: every item's size, in points, when they are all alike.
    public mutating func describe(viewport: Size, itemCount: Int, itemSize: Size? = nil) {
        self.viewport = viewport
        self.itemCount = itemCount
        self.itemSize = itemSize
        meanItemHeight = nil
    }

    /// Describes the screen and a varied layout by its item count and mean
    /// item height (`nil`: not known).
    public mutating func describe(viewport: Size, itemCount: Int, meanItemHeight: Double?) {
        self.viewport = viewport
        self.itemCount = itemCount
        itemSize = nil
        self.meanItemHeight = meanItemHeight.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
    }

    /// Describes the screen and a varied layout by its mean item height.
    ///
    /// - Complexity: O(n) in the number of heights.
    public mutating func describe(viewport: Size, itemHeights: some Collection<Double>) {
        self.viewport = viewport
        itemCount = itemHeights.count
        itemSize = nil
        meanItemHeight = itemHeights.isEmpty ? nil : itemHeights.reduce(0, +) / Double(itemHeights.count)
    }

    /// Records one frame.
    ///
    /// - Parameters:
    ///   - offset: the vertical content offset, in points.
    ///   - time: when the frame is shown, on any clock that only goes forward.
    ///   - targetOffset: on the frame a drag ends in a fling, where it will
    ///     come to rest (`scrollViewWillEndDragging(_:withVelocity:targetContentOffset:)`).
    /// - Complexity: O(1).
    public mutating func record(offset: Double, at time: Duration, targetOffset: Double? = nil) {
        // A scroll view's offsets are finite; anything else would make an unreadable trace.
        guard offset.isFinite else { return }
        let sample = Sample(time: time, offset: offset, targetOffset: targetOffset.flatMap { $0.isFinite ? $0 : nil })
        if ring.count < capacity {
            ring.append(sample)
        } else {
            ring[oldest] = sample
            oldest = oldest + 1 == capacity ? 0 : oldest + 1
            droppedCount += 1
        }
    }

    /// Records the frame a planner is given.
    package mutating func record(_ frame: ScrollFrame, targetOffset: Double? = nil) {
        record(offset: frame.visibleRect.origin.y, at: frame.time, targetOffset: targetOffset)
    }

    /// The samples kept, oldest first.
    ///
    /// - Complexity: O(n).
    public var samples: [Sample] {
        Array(ring[oldest...] + ring[..<oldest])
    }

    /// Forgets every sample (the description stays).
    public mutating func removeAll() {
        ring.removeAll(keepingCapacity: true)
        oldest = 0
        droppedCount = 0
    }

    /// The recording as CSV: metadata lines, the header, one line per sample.
    ///
    /// Times are milliseconds from the first kept sample; a sample whose time
    /// goes back (a clock that jumped) is written at the previous time, since
    /// the simulator refuses traces going back in time.
    ///
    /// - Complexity: O(n).
    public func csv() -> String {
        var text = "# lookahead-trace=1\n"
        if let viewport { text += "# viewport=\(Self.number(viewport.width))x\(Self.number(viewport.height))\n" }
        if let itemCount { text += "# items=\(itemCount)\n" }
        if let itemSize { text += "# item-size=\(Self.number(itemSize.width))x\(Self.number(itemSize.height))\n" }
        if let meanItemHeight { text += "# item-height=\(Self.number(meanItemHeight))\n" }
        if droppedCount > 0 { text += "# dropped=\(droppedCount)\n" }
        text += "time_ms,offset,target_offset\n"
        let kept = samples
        guard let start = kept.first?.time else { return text }
        var previous = Duration.zero
        for sample in kept {
            let elapsed = max(previous, sample.time - start)
            previous = elapsed
            let target = sample.targetOffset.map(Self.number) ?? ""
            text += "\(Self.milliseconds(elapsed)),\(Self.number(sample.offset)),\(target)\n"
        }
        return text
    }

    /// `duration` in milliseconds, to the microsecond, without trailing zeros.
    static func milliseconds(_ duration: Duration) -> String {
        let microseconds = duration.components.seconds * 1_000_000 + duration.components.attoseconds / 1_000_000_000_000
        let whole = microseconds / 1_000
        let fraction = microseconds % 1_000
        guard fraction != 0 else { return "\(whole)" }
        var digits = String(fraction)
        digits = String(repeating: "0", count: 3 - digits.count) + digits
        while digits.last == "0" { digits.removeLast() }
        return "\(whole).\(digits)"
    }

    /// A finite number in its shortest form that reads back the same (`12` rather than `12.0`).
    static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }
}
