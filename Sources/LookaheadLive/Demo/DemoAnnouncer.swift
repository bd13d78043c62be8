#if Tools
import Lookahead
import LookaheadSimulation

// What an app tells its coordinator about the scripted scroll's motions,
// beside the offsets: where a fling will rest when the drag ends, where an
// animated scroll goes when it starts, and when either is over. The same
// landings the simulator announces to its planner (AnnouncedLandings), so
// that the live demo and `--simulate` plan the same frames.

/// What the demo's app tells the coordinator on a frame, beside its offset.
enum DemoAnnouncement: Hashable, Sendable {
    /// A drag ended in a fling moving at `velocity` (points per second)
    /// that will rest at `target` (`scrollViewWillEndDragging`).
    case fling(target: Double, velocity: Double)
    /// The app starts an animated scroll to `target` (`scrollViewWillAnimateScroll`).
    case animatedScroll(target: Double)
    /// The motion announced last is over (`scrollViewDidEndFling`).
    case ended
}

/// Turns a scripted trace's landings into the announcements of the frames
/// the demo shows, which come at real-time moments (a busy machine skips
/// some).
struct DemoAnnouncer: Sendable {
    private let trace: ScrollTrace
    private var landings: AnnouncedLandings
    private var current: AnnouncedLandings.Landing?

    /// Announces the landings of `trace`, whose offsets stay within `0...maxOffset`.
    init(trace: ScrollTrace, maxOffset: Double) {
        self.trace = trace
        landings = AnnouncedLandings(trace: trace, maxOffset: maxOffset)
    }

    /// What to announce on the frame shown at `time` (never earlier than
    /// the last call's): a landing the first time a frame falls within it,
    /// `.ended` on the first frame after it, else `nil`.
    ///
    /// - Complexity: amortized O(1).
    mutating func announcement(at time: Duration) -> DemoAnnouncement? {
        let landing = landings.landing(at: time)
        guard landing != current else { return nil }
        current = landing
        guard let landing else { return .ended }
        switch landing.kind {
        case .animatedScroll:
            return .animatedScroll(target: landing.offset)
        case .fling:
            // The velocity UIKit reports at the release: the fling's first frame's.
            let step = Duration.milliseconds(1)
            let velocity = (trace.offset(at: time + step) - trace.offset(at: time)) / (step / .seconds(1))
            return .fling(target: landing.offset, velocity: velocity)
        }
    }
}
#endif
