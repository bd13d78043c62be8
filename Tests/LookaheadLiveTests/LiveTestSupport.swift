#if Tools
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
///
/// A few of them assert what lands within the trace's real time — a hedge
/// that wins its race, loads that finish before the run ends — and those do
/// not run where `LOOKAHEAD_SANITIZED` is set: `.ci/run`'s ThreadSanitizer
/// pass, where every load and frame takes several times as long.
enum RealTimeTests {
    static let areEnabled = ProcessInfo.processInfo.environment["LOOKAHEAD_REALTIME_TESTS"] != nil
    static let areSlowedBySanitizer = ProcessInfo.processInfo.environment["LOOKAHEAD_SANITIZED"] != nil

    /// Whether a test that runs for its threads' sake under a sanitizer also
    /// checks what lands within its run's real time (as ``timingBound``
    /// tests do): not under a sanitizer. Under ThreadSanitizer, on one core
    /// beside three busy loops, the demo's one-second runs finished no load.
    static var checkWhatLands: Bool { !areSlowedBySanitizer }
}

extension Trait where Self == ConditionTrait {
    /// Runs the suite only in the real-time pass (see ``RealTimeTests``).
    static var realTime: Self {
        .enabled(
            if: RealTimeTests.areEnabled,
            "runs in real time: set LOOKAHEAD_REALTIME_TESTS=1 and run it alone (swift test --filter LookaheadLiveTests)"
        )
    }

    /// Runs the suite except in the real-time pass (see ``RealTimeTests``):
    /// it computes for seconds without waiting, which it may in the main
    /// pass, where it runs too; in the real-time pass it would take the cores
    /// that the real-time tests' frames and loads must have within their
    /// trace's time (under ThreadSanitizer the demo's simulations took both
    /// cores for 17 s, and a one-second run over HTTP drew 6 frames and
    /// finished no load).
    static var computeBound: Self {
        .disabled(
            if: RealTimeTests.areEnabled,
            "computes for seconds: runs in the main pass, not beside the real-time tests it would slow"
        )
    }

    /// Runs the test except under a sanitizer (see ``RealTimeTests``): what
    /// it expects to land within the trace's real time depends on how fast
    /// the machine runs the loads.
    static var timingBound: Self {
        .disabled(
            if: RealTimeTests.areSlowedBySanitizer,
            "what lands within the trace's real time depends on the machine's speed, which a sanitizer divides"
        )
    }
}
#endif
