public import Lookahead

/// Makes scroll traces of a feed of carousels from a seed: the vertical
/// scrolling of one of ``ScrollTraceGenerator``'s styles, with horizontal
/// swipes into some rows.
///
/// Between two vertical gestures the user may, with ``swipeProbability``,
/// put a finger on the row under it (a point drawn in the middle 60% of the
/// screen): if that row is a carousel with somewhere to go, the finger
/// flicks it 1–3 times — a short drag, then a fling that decelerates as
/// UIScrollView's does (``TraceFling``), stopped by the carousel's ends —
/// with a look of 0.2–0.8 s between flicks, then scrolling goes on
/// vertically. Flicks go towards later items, back only sometimes (15%) or
/// from the end. While the finger is on a row every sample names it
/// (``ScrollTrace/Sample/row``) with the carousel's offset; the feed's
/// vertical offset stands still.
///
/// The vertical gestures draw from `seed`, the swipes from a stream of their
/// own, so the same inputs give the same trace sample for sample.
public struct CarouselTraceGenerator: Sendable {
    /// The seed the trace is drawn from.
    public var seed: UInt64
    /// How the user scrolls vertically.
    public var style: ScrollTraceGenerator.Style
    /// How long the trace lasts.
    public var duration: Duration
    /// The feed.
    public var feed: CarouselFeedLayout
    /// The height of the viewport, in points.
    public var viewportHeight: Double
    /// Samples per second.
    public var frameRate: Double
    /// The chance that the user swipes the row under the finger between two vertical gestures.
    public var swipeProbability: Double

    /// Creates a generator.
    ///
    /// - Parameters:
    ///   - seed: the seed the trace is drawn from.
    ///   - style: how the user scrolls vertically.
    ///   - duration: how long the trace lasts; not negative.
    ///   - feed: the feed (its width is each carousel's visible width).
    ///   - viewportHeight: the viewport's height in points.
    ///   - frameRate: samples per second, positive (default 60).
    ///   - swipeProbability: in `0...1` (default 0.3).
    public init(
        seed: UInt64, style: ScrollTraceGenerator.Style, duration: Duration, feed: CarouselFeedLayout,
        viewportHeight: Double, frameRate: Double = 60, swipeProbability: Double = 0.3
    ) {
        self.seed = seed
        self.style = style
        self.duration = duration
        self.feed = feed
        self.viewportHeight = viewportHeight
        self.frameRate = frameRate
        self.swipeProbability = swipeProbability
    }

    /// The release speeds of horizontal flicks, in pt/s.
    static let flickSpeeds = TraceDistribution.logUniform(300...4_000)
    /// How long the finger drags before letting go, in seconds.
    static let dragSeconds = 0.1
    /// The look between two flicks, in seconds.
    static let lookSeconds = TraceDistribution.uniform(0.2...0.8)

    /// Makes the trace: one sample per frame, the first at time zero and
    /// offset zero, the last at the last whole frame within `duration`.
    ///
    /// - Precondition: `swipeProbability` in `0...1`, and what
    ///   ``ScrollTraceGenerator/makeTrace()`` requires.
    /// - Complexity: O(frames).
    public func makeTrace() -> ScrollTrace {
        precondition((0...1).contains(swipeProbability), "CarouselTraceGenerator: swipeProbability must be in 0...1")
        // The vertical trace's own checks and frame count.
        let vertical = ScrollTraceGenerator(
            seed: seed, style: style, duration: duration, contentHeight: feed.outer.contentSize.height,
            viewportHeight: viewportHeight, frameRate: frameRate)
        let frame = vertical.frameDuration
        let frameCount = Int((duration / frame + 1e-9).rounded(.down))
        var random = TraceRandom(seed: seed)
        var swipes = TraceRandom(seed: seed ^ 0xCA20_05E1_5A1D_E5)
        var scroller = TraceScroller(
            parameters: style.parameters, maxOffset: vertical.maxOffset, frameRate: frameRate, using: &random)
        var offsets: [Int: Double] = [:]
        var samples = [ScrollTrace.Sample(time: .zero, offset: 0)]
        samples.reserveCapacity(frameCount + 1)
        /// The frames a swipe still has to show, each the row's offset then.
        var swipe: [Double] = []
        var swipeFrame = 0
        var swipedRow = 0
        var swiped = false
        while samples.count <= frameCount {
            let time = frame * samples.count
            if swipeFrame < swipe.count {
                let rowOffset = swipe[swipeFrame]
                swipeFrame += 1
                offsets[swipedRow] = rowOffset
                samples.append(
                    ScrollTrace.Sample(time: time, offset: scroller.offset, row: swipedRow, rowOffset: rowOffset))
                continue
            }
            // At most one swipe between two vertical gestures.
            if scroller.isIdle, samples.count > 1, !swiped, swipes.chance(swipeProbability),
                let row = rowUnderFinger(offset: scroller.offset, using: &swipes), feed.maxOffset(ofRow: row) > 0
            {
                swipedRow = row
                swipe = flicks(ofRow: row, from: offsets[row] ?? 0, using: &swipes)
                swipeFrame = 0
                swiped = true
                continue
            }
            swiped = false
            scroller.advance(using: &random)
            samples.append(ScrollTrace.Sample(time: time, offset: scroller.offset))
        }
        return ScrollTrace(samples: samples)
    }

    /// The row under a finger put down in the middle 60% of the screen, if any.
    func rowUnderFinger(offset: Double, using random: inout TraceRandom) -> Int? {
        let y = offset + viewportHeight * random.uniform(0.2...0.8)
        return feed.outer.itemPaths(in: Rect(x: 0, y: y, width: feed.width, height: 0.5)).first?.item
    }

    /// The carousel's offset frame by frame through 1–3 flicks from `start`.
    func flicks(ofRow row: Int, from start: Double, using random: inout TraceRandom) -> [Double] {
        let maxOffset = feed.maxOffset(ofRow: row)
        let millisecondsPerFrame = 1000 / frameRate
        var offset = min(max(start, 0), maxOffset)
        var frames: [Double] = [offset]
        let count = 1 + Int(random.next() % 3)
        for flick in 0..<count {
            if flick > 0 {
                let look = Int((Self.lookSeconds.draw(using: &random) * frameRate).rounded())
                frames += Array(repeating: offset, count: max(1, look))
            }
            let backwards = offset >= maxOffset || (offset > 0 && random.chance(0.15))
            let speed = Self.flickSpeeds.draw(using: &random) * (backwards ? -1 : 1)
            // The drag, then the fling from where the finger let go.
            let dragFrames = max(1, Int((Self.dragSeconds * frameRate).rounded()))
            for _ in 0..<dragFrames {
                offset = min(max(offset + speed / frameRate, 0), maxOffset)
                frames.append(offset)
            }
            let fling = TraceFling(velocity: speed)
            let release = offset
            var elapsed = 0.0
            while fling.isMoving(afterMilliseconds: elapsed) {
                elapsed += millisecondsPerFrame
                let target = release + fling.distance(afterMilliseconds: elapsed)
                offset = min(max(target, 0), maxOffset)
                frames.append(offset)
                if offset != target { break }
            }
        }
        return frames
    }
}
