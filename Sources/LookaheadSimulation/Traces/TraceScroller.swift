import Lookahead

/// A simulated user's scrolling, one frame at a time: the gesture in
/// progress, and the choice of the next one when it ends.
///
/// Each call to `advance(using:)` moves the offset by one frame, so a trace
/// of n frames costs O(n) whatever the gestures. Randomness comes only from
/// the generator passed in.
struct TraceScroller {
    private enum Motion {
        /// Between gestures: the next frame starts a new one.
        case idle
        /// A finger moves the content at `velocity` (pt/s, signed, give or
        /// take `noise`, a fraction) for `framesLeft` more frames, then lets go
        /// into a fling at `release`, if any.
        case drag(velocity: Double, noise: Double, framesLeft: Int, release: Double?)
        /// A fling released at `start`, `frame` frames ago.
        case fling(TraceFling, start: Double, frame: Int)
        /// Reading, still, for `framesLeft` more frames.
        case pause(framesLeft: Int)
        /// An animated jump (scroll to top, or back), `frame` of `frames` frames done.
        case jump(from: Double, to: Double, frame: Int, frames: Int)
    }

    /// A gesture as it was drawn, for the tests that hold the styles to
    /// measured human scrolling.
    struct Gesture: Hashable, Sendable {
        /// The frame at which the finger came down.
        var frame: Int
        /// The speed the content is released at into a fling (pt/s), or
        /// `nil` when the finger stopped first.
        var releaseSpeed: Double?
        /// Whether it went against the heading.
        var isReversal: Bool
    }

    let parameters: TraceGestureParameters
    let maxOffset: Double
    let frameRate: Double
    private let millisecondsPerFrame: Double

    /// The content offset after the last frame.
    private(set) var offset = 0.0
    /// The frames advanced so far.
    private(set) var frame = 0
    /// The gestures begun so far, when `recordsGestures` (tests only).
    private(set) var gestures: [Gesture] = []
    var recordsGestures = false

    private var motion = Motion.idle
    /// +1 while heading down the content, −1 while heading back up.
    private var heading = 1.0
    /// Whether the last gesture was a pause, so that two never follow each other.
    private var lastWasPause = false
    /// The drag speed's deviation, a bounded random walk, as a fraction of the speed.
    private var dragDeviation = 0.0
    /// Planned motions that start one after another (a jump, a read, a jump back).
    private var planned: [Motion] = []
    /// The frame at which the next jump to the top is due, when the style jumps.
    private var nextJumpFrame: Int?

    /// Starts at offset zero, between gestures.
    init(parameters: TraceGestureParameters, maxOffset: Double, frameRate: Double, using random: inout TraceRandom) {
        precondition(maxOffset >= 0 && frameRate > 0, "TraceScroller: needs maxOffset >= 0 and frameRate > 0")
        self.parameters = parameters
        self.maxOffset = maxOffset
        self.frameRate = frameRate
        millisecondsPerFrame = 1000 / frameRate
        if let jumps = parameters.jumps {
            nextJumpFrame = frames(random.uniform(jumps.interval))
        }
    }

    /// Goes on from what an app can observe of a scroll: at `offset`, a
    /// fling released at `velocity` from there if it moves (a drag's end is
    /// taken for one) or the fling that comes to rest at `target` when the
    /// app was told it, between gestures if it rests, heading as it last moved.
    /// The causal reference's futures start here (``CausalReferencePolicy``).
    init(
        parameters: TraceGestureParameters, maxOffset: Double, frameRate: Double, offset: Double, velocity: Double,
        target: Double? = nil, heading: Double, using random: inout TraceRandom
    ) {
        self.init(parameters: parameters, maxOffset: maxOffset, frameRate: frameRate, using: &random)
        self.offset = min(max(offset, 0), maxOffset)
        self.heading = heading < 0 ? -1 : 1
        let velocity = target.map { TraceFling.velocity(travelling: $0 - self.offset) } ?? velocity
        if abs(velocity) >= TraceFling.stopSpeed {
            motion = .fling(TraceFling(velocity: velocity), start: self.offset, frame: 0)
        }
    }

    /// Whether no gesture is in progress (the next frame starts one).
    var isIdle: Bool {
        if case .idle = motion { return true }
        return false
    }

    /// Lets go into a fling at `velocity` from the current offset (a test hook).
    mutating func startFling(velocity: Double) {
        motion = .fling(TraceFling(velocity: velocity), start: offset, frame: 0)
    }

    /// Moves on by one frame, starting a new gesture first if none is in progress.
    mutating func advance(using random: inout TraceRandom) {
        if isIdle { motion = nextMotion(using: &random) }
        frame += 1
        switch motion {
        case .idle:
            preconditionFailure("TraceScroller: no gesture to advance")
        case .drag(let velocity, let noise, let framesLeft, let release):
            if noise > 0 {
                dragDeviation = min(max(dragDeviation + random.uniform(-0.3 * noise...0.3 * noise), -noise), noise)
            }
            if move(to: offset + velocity * (1 + dragDeviation) / frameRate) {
                motion = .idle  // stopped at the edge: nothing left to fling
            } else if framesLeft > 1 {
                motion = .drag(velocity: velocity, noise: noise, framesLeft: framesLeft - 1, release: release)
            } else if let release, abs(release) >= TraceFling.stopSpeed {
                motion = .fling(TraceFling(velocity: release), start: offset, frame: 0)
            } else {
                motion = .idle
            }
        case .fling(let fling, let start, let flingFrame):
            let elapsed = Double(flingFrame + 1) * millisecondsPerFrame
            let hitEdge = move(to: start + fling.distance(afterMilliseconds: elapsed))
            motion =
                hitEdge || !fling.isMoving(afterMilliseconds: elapsed)
                ? .idle : .fling(fling, start: start, frame: flingFrame + 1)
        case .pause(let framesLeft):
            motion = framesLeft > 1 ? .pause(framesLeft: framesLeft - 1) : .idle
        case .jump(let from, let to, let jumpFrame, let frames):
            if jumpFrame + 1 >= frames {
                offset = to
                motion = .idle
            } else {
                // Ease in and out, as UIKit's animated scrolls do.
                let progress = ScrollPhysics.animatedScrollProgress(
                    elapsed: Double(jumpFrame + 1), duration: Double(frames))
                offset = from + (to - from) * progress
                motion = .jump(from: from, to: to, frame: jumpFrame + 1, frames: frames)
            }
        }
    }

    /// Moves to `target`, clamped to the content; whether it hit an edge.
    private mutating func move(to target: Double) -> Bool {
        offset = min(max(target, 0), maxOffset)
        return offset != target
    }

    /// The whole frames in `seconds`, at least one.
    private func frames(_ seconds: Double) -> Int {
        max(1, Int((seconds * frameRate).rounded()))
    }

    private mutating func nextMotion(using random: inout TraceRandom) -> Motion {
        if !planned.isEmpty {
            return start(planned.removeFirst())
        }
        if let jumps = parameters.jumps, let due = nextJumpFrame, frame >= due {
            return start(planJumps(jumps, using: &random))
        }
        if !lastWasPause && random.chance(parameters.pauseProbability) {
            lastWasPause = true
            return .pause(framesLeft: frames(parameters.pauseDuration.draw(using: &random)))
        }
        lastWasPause = false
        let gesture = nextGesture(using: &random)
        if recordsGestures, case .drag(let velocity, _, _, let release) = gesture {
            gestures.append(
                Gesture(
                    frame: frame, releaseSpeed: release.map(abs).flatMap { $0 >= TraceFling.stopSpeed ? $0 : nil },
                    isReversal: velocity * heading < 0))
        }
        return gesture
    }

    /// Fills in what a planned motion can only know when it starts.
    private mutating func start(_ motion: Motion) -> Motion {
        lastWasPause = false
        if case .jump(_, let to, let frame, let frames) = motion {
            return .jump(from: offset, to: to, frame: frame, frames: frames)
        }
        if case .pause = motion { lastWasPause = true }
        return motion
    }

    /// A jump to the top, a read there, and a jump back deep; returns the
    /// first and plans the rest.
    private mutating func planJumps(_ jumps: TraceGestureParameters.Jumps, using random: inout TraceRandom) -> Motion {
        let animation = frames(jumps.animation)
        let read = frames(random.uniform(jumps.readAtTop))
        let back = min(offset * random.uniform(jumps.returnDepth), maxOffset)
        planned = [
            .pause(framesLeft: read),
            .jump(from: 0, to: back, frame: 0, frames: animation),
        ]
        nextJumpFrame = frame + 2 * animation + read + frames(random.uniform(jumps.interval))
        return .jump(from: offset, to: 0, frame: 0, frames: animation)
    }

    /// A drag, a drag released into a fling, or a flick, along the heading or
    /// (a reversal) against it.
    private mutating func nextGesture(using random: inout TraceRandom) -> Motion {
        if offset >= maxOffset { heading = -1 }
        if offset <= 0 { heading = 1 }
        var direction = random.chance(parameters.reversalProbability) ? -heading : heading
        // Against an edge there is nowhere to go but away from it.
        if (direction < 0 && offset <= 0) || (direction > 0 && offset >= maxOffset) { direction = -direction }
        dragDeviation = 0
        if direction != heading && parameters.shortReversals {
            // A step back to re-read something: a plain drag, half as long.
            let velocity = direction * parameters.dragSpeed.draw(using: &random)
            let framesLeft = frames(parameters.dragDuration.draw(using: &random) / 2)
            return .drag(velocity: velocity, noise: parameters.dragNoise, framesLeft: framesLeft, release: nil)
        }
        if random.chance(parameters.flickProbability) {
            // Too brief for the finger's speed to wander: the flick moves at its release speed throughout.
            let velocity = direction * parameters.flickSpeed.draw(using: &random)
            let framesLeft = frames(random.uniform(parameters.flickContact))
            return .drag(velocity: velocity, noise: 0, framesLeft: framesLeft, release: velocity)
        }
        let velocity = direction * parameters.dragSpeed.draw(using: &random)
        let framesLeft = frames(parameters.dragDuration.draw(using: &random))
        let release =
            random.chance(parameters.releaseFlingProbability)
            ? velocity * random.uniform(parameters.releaseBoost) : nil
        return .drag(velocity: velocity, noise: parameters.dragNoise, framesLeft: framesLeft, release: release)
    }
}
