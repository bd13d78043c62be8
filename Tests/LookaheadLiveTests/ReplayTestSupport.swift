#if Tools
import Lookahead
import LookaheadSimulation

/// Tiny scenarios for real replays: a few dozen rows, a trace of about a
/// second, fixed latencies of a few milliseconds, so that a run is short and
/// its geometry is known.
enum ReplayTestScenario {
    /// 40 rows of 50 pt in a 390 × 200 viewport (4 to 5 rows visible).
    static let rowCount = 40

    /// Scrolls down 600 pt in 0.4 s, rests, then comes back to the top by
    /// 0.9 s and rests until `restUntil` (a reversal: what was prefetched
    /// below is given up).
    static func reversal(restUntil: Duration = .milliseconds(1_200)) -> ScrollTrace {
        ScrollTrace(samples: [
            .init(time: .zero, offset: 0),
            .init(time: .milliseconds(400), offset: 600),
            .init(time: .milliseconds(500), offset: 600),
            .init(time: .milliseconds(900), offset: 0),
            .init(time: restUntil, offset: 0),
        ])
    }

    /// Scrolls down 1,200 pt in a second.
    static let downward = ScrollTrace(samples: [
        .init(time: .zero, offset: 0),
        .init(time: .milliseconds(1_000), offset: 1_200),
    ])

    /// Scrolls down 1,200 pt in a second, then rests until `restUntil` (long
    /// enough for every load to finish, even on a slow, sanitized build).
    static func downwardThenRest(until restUntil: Duration) -> ScrollTrace {
        ScrollTrace(samples: downward.samples + [.init(time: restUntil, offset: 1_200)])
    }

    static func make(
        trace: ScrollTrace = downward, latency: Duration = .milliseconds(2), concurrency: Int = 4, seed: UInt64 = 7
    ) -> SimulationScenario {
        SimulationScenario(
            name: "tiny", layout: .list(rowHeights: Array(repeating: 50, count: rowCount)),
            viewport: Size(width: 390, height: 200), frameRate: 60,
            network: NetworkModel(seed: seed, latency: .fixed(latency), payload: .uniform(400...900)),
            maxConcurrentLoads: concurrency, trace: trace)
    }
}
#endif
