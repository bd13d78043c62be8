import Lookahead

/// Makes scroll traces from a seed, with the physics of real scrolling:
/// finger drags, flings that decelerate as UIScrollView's do, pauses to read,
/// direction reversals, and jumps to the top and back.
///
/// The same inputs always give the same trace, sample for sample: all
/// randomness comes from a SplitMix64 generator seeded with `seed`.
///
/// ```swift
/// let trace = ScrollTraceGenerator(
///     seed: 42, style: .reading, duration: .seconds(120),
///     contentHeight: 1_200_000, viewportHeight: 844
/// ).makeTrace()
/// ```
public struct ScrollTraceGenerator: Sendable {
    /// The seed the trace is drawn from.
    public var seed: UInt64
    /// How the simulated user scrolls.
    public var style: Style
    /// How long the trace lasts.
    public var duration: Duration
    /// The height of the scrolled content, in points.
    public var contentHeight: Double
    /// The height of the viewport, in points.
    public var viewportHeight: Double
    /// Samples per second.
    public var frameRate: Double

    /// Creates a generator.
    ///
    /// - Parameters:
    ///   - seed: the seed the trace is drawn from.
    ///   - style: how the simulated user scrolls.
    ///   - duration: how long the trace lasts; not negative.
    ///   - contentHeight: the content's height in points.
    ///   - viewportHeight: the viewport's height in points; the offset stays
    ///     within `0...max(0, contentHeight - viewportHeight)`.
    ///   - frameRate: samples per second, positive (default 60).
    public init(
        seed: UInt64, style: Style, duration: Duration, contentHeight: Double, viewportHeight: Double,
        frameRate: Double = 60
    ) {
        self.seed = seed
        self.style = style
        self.duration = duration
        self.contentHeight = contentHeight
        self.viewportHeight = viewportHeight
        self.frameRate = frameRate
    }

    /// The largest content offset: the content's bottom at the viewport's bottom.
    public var maxOffset: Double { max(0, contentHeight - viewportHeight) }

    /// The time between two samples: `1 / frameRate` seconds.
    ///
    /// For a whole-number frame rate this is `.seconds(1) / frameRate`,
    /// truncated to the attosecond, the same value a frame loop that divides
    /// a second by its rate gets.
    public var frameDuration: Duration { Self.frameDuration(frameRate: frameRate) }

    /// Makes the trace: one sample per frame, the first at time zero and
    /// offset zero, the last at the last whole frame within `duration`.
    ///
    /// Sample n is at exactly `frameDuration * n`.
    ///
    /// - Precondition: at most ``SimulationScenario/maximumFrameCount``
    ///   frames (a day at 60 Hz): check user input before, as
    ///   ``SimulationScenario/validate()`` does.
    /// - Complexity: O(frames), that is O(duration × frameRate).
    public func makeTrace() -> ScrollTrace {
        generate(recordingGestures: false).trace
    }

    /// The trace and the gestures drawn to make it (a test hook: the styles
    /// are held to measured human scrolling gesture by gesture).
    func makeTraceRecordingGestures() -> (trace: ScrollTrace, gestures: [TraceScroller.Gesture]) {
        generate(recordingGestures: true)
    }

    private func generate(recordingGestures: Bool) -> (trace: ScrollTrace, gestures: [TraceScroller.Gesture]) {
        precondition(duration >= .zero, "ScrollTraceGenerator: duration must not be negative")
        precondition(
            contentHeight.isFinite && viewportHeight.isFinite,
            "ScrollTraceGenerator: content and viewport heights must be finite")
        let frame = frameDuration
        let frames = duration / frame
        precondition(
            frames <= Double(SimulationScenario.maximumFrameCount),
            "ScrollTraceGenerator: \(duration) at \(frameRate) Hz is more than the "
                + "\(SimulationScenario.maximumFrameCount) frames a run accepts")
        // A tolerance for the division's rounding, so that a duration of whole frames keeps its last one.
        let frameCount = Int((frames + 1e-9).rounded(.down))
        var random = TraceRandom(seed: seed)
        var scroller = TraceScroller(
            parameters: style.parameters, maxOffset: maxOffset, frameRate: frameRate, using: &random)
        scroller.recordsGestures = recordingGestures
        var samples = [ScrollTrace.Sample]()
        samples.reserveCapacity(frameCount + 1)
        samples.append(ScrollTrace.Sample(time: .zero, offset: scroller.offset))
        for index in stride(from: 1, through: frameCount, by: 1) {
            scroller.advance(using: &random)
            samples.append(ScrollTrace.Sample(time: frame * index, offset: scroller.offset))
        }
        return (ScrollTrace(samples: samples), scroller.gestures)
    }

    /// One fling from offset zero, released at `v0` pt/s, through the generator's
    /// own frame stepping, unbounded by content: a sample per frame from the
    /// release (offset zero) to the frame at which the speed falls below
    /// `TraceFling.stopSpeed`.
    static func flingSamples(v0: Double, frameRate: Double = 60) -> [ScrollTrace.Sample] {
        var random = TraceRandom(seed: 0)
        var scroller = TraceScroller(
            parameters: Style.reading.parameters, maxOffset: .greatestFiniteMagnitude, frameRate: frameRate,
            using: &random)
        let frame = frameDuration(frameRate: frameRate)
        var samples = [ScrollTrace.Sample(time: .zero, offset: 0)]
        scroller.startFling(velocity: v0)
        while !scroller.isIdle {
            scroller.advance(using: &random)
            samples.append(ScrollTrace.Sample(time: frame * scroller.frame, offset: scroller.offset))
        }
        return samples
    }

    static func frameDuration(frameRate: Double) -> Duration {
        precondition(frameRate > 0 && frameRate.isFinite, "ScrollTraceGenerator: frameRate must be positive")
        if frameRate.rounded() == frameRate && frameRate <= 1e9 {
            return .seconds(1) / Int(frameRate)
        }
        return .seconds(1 / frameRate)
    }
}
