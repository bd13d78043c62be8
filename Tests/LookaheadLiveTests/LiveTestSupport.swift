import Foundation
import Testing

/// Tests that run a scroll in real time (the demo's session, the real
/// replay) assert what arrives within that time, so a busy machine makes
/// them fail: `swift test` runs several hundred tests at once, the main
/// actor and the two cooperative threads of this machine shared by all.
/// They run when `LOOKAHEAD_REALTIME_TESTS` is set, in a pass of their own:
///
///     LOOKAHEAD_REALTIME_TESTS=1 swift test --filter LookaheadLiveTests
///
/// as `.ci/run` does, after the full `swift test`.
enum RealTimeTests {
    static let areEnabled = ProcessInfo.processInfo.environment["LOOKAHEAD_REALTIME_TESTS"] != nil
}

extension Trait where Self == ConditionTrait {
    /// Runs the suite only in the real-time pass (see ``RealTimeTests``).
    static var realTime: Self {
        .enabled(
            if: RealTimeTests.areEnabled,
            "runs in real time: set LOOKAHEAD_REALTIME_TESTS=1 and run it alone (swift test --filter LookaheadLiveTests)"
        )
    }
}
