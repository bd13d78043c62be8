import Lookahead

/// How a simulated user scrolls: the odds and ranges the trace generator
/// draws each gesture from.
///
/// Speeds are in pt/s, durations in seconds, probabilities per gesture.
/// Ranges are sampled uniformly; distributions as they say.
struct TraceGestureParameters: Hashable, Sendable {
    /// How fast a finger drags the content, steadily apart from `dragNoise`.
    var dragSpeed: TraceDistribution
    /// How far a drag's speed wanders from its mean, as a fraction (a bounded
    /// random walk of steps up to 0.3 × this per frame).
    var dragNoise = 0.1
    /// How long a drag lasts.
    var dragDuration: TraceDistribution
    /// The chance that a drag ends in a fling rather than the finger stopping.
    var releaseFlingProbability: Double
    /// The release velocity of such a fling, as a multiple of the drag's speed
    /// (at least 1: a finger that lets go while moving keeps the content going
    /// at least as fast).
    var releaseBoost: ClosedRange<Double>
    /// The chance that a gesture is a flick: a brief finger contact
    /// (`flickContact`, in seconds) moving at `flickSpeed` and released into a
    /// fling at that speed.
    var flickProbability: Double
    var flickSpeed: TraceDistribution
    var flickContact: ClosedRange<Double> = 0.03...0.08
    /// The chance that a gesture goes against the heading (up while reading
    /// down); the next one heads on again, so a reversal lasts one gesture.
    var reversalProbability: Double
    /// Whether a reversal is a short step back (a plain drag of half the usual
    /// length, never a fling), as when re-reading, rather than a gesture like any other.
    var shortReversals = false
    /// The chance of stopping to read after a gesture (never twice in a row).
    var pauseProbability: Double
    var pauseDuration: TraceDistribution
    /// Jumps to the top and back, if the user makes them.
    var jumps: Jumps?

    /// "Scroll to top" (a tap on the status bar), a short read there, and a
    /// jump back deep into the content.
    struct Jumps: Hashable, Sendable {
        /// Time between the end of one jump back and the next jump to the top.
        var interval: ClosedRange<Double>
        /// How long the user reads at the top.
        var readAtTop: ClosedRange<Double>
        /// Where the jump back lands, as a multiple of the offset the jump to
        /// the top left from (1: where the user was; more: further down).
        var returnDepth: ClosedRange<Double>
        /// How long each jump's animation lasts (UIKit's scroll-to-top takes about 0.3 s).
        var animation: Double = ScrollPhysics.animatedScrollDuration
    }
}
