// The clock a torture run gives the fetcher: retry backoff costs a yield,
// not its real duration, so that a million operations with retries run fast.

import Lookahead

/// A clock whose sleeps return after one yield, whatever their length.
///
/// What is under test is the order of events, not their timing: a retry
/// delay of 200 ms on `ContinuousClock` would only slow the run down.
struct TortureClock: Clock {
    struct Instant: InstantProtocol {
        var offset: Duration

        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    var now: Instant { Instant(offset: .zero) }
    var minimumResolution: Duration { .zero }

    func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        await Task.yield()
    }
}

/// A clock that reads the time a soak has reached, frame by frame.
///
/// A fetcher on it measures a load by the frames it took, as an app's would,
/// instead of by how fast this machine runs the frames: the windows the
/// policy sizes from those latencies are then the same in a release build,
/// a debug build and under ThreadSanitizer. Sleeps return after one yield.
struct FrameClock: Clock {
    let time = LockedValue(Duration.zero)

    var now: TortureClock.Instant { TortureClock.Instant(offset: time.withLock { $0 }) }
    var minimumResolution: Duration { .zero }

    func sleep(until deadline: TortureClock.Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        await Task.yield()
    }
}
