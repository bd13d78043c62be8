public import Lookahead
public import LookaheadSimulation

// The strategies the live demo can show: a subset of the simulator's, mapped
// through SimulationStrategy so that the strategy→policy map is written once.

/// The prefetching strategies the demo can show, named as the simulator names
/// them: those a headless collection view's planner can follow.
public enum DemoStrategy: String, CaseIterable, Sendable {
    /// Lookahead's own policy: each item in time for its predicted appearance.
    case adaptive
    /// UIKit's observed prefetch window.
    case system
    /// Texture's preload range: 2.5 screens ahead, 1.5 behind.
    case texture
    /// No prefetching: items load only when their cell is asked for.
    case none

    /// The simulator's strategy of the same name.
    public var simulationStrategy: SimulationStrategy {
        switch self {
        case .adaptive: .adaptive
        case .system: .system
        case .texture: .texture
        case .none: .none
        }
    }

    /// Whether the collection view tells its prefetch data source anything.
    public var isPrefetchingEnabled: Bool { self != .none }

    /// The collection view's policy for this strategy: the simulator's
    /// (``SimulationStrategy/prefetchPolicy``), but for the adaptive
    /// policy's prior.
    ///
    /// The headless view does not report load durations to its planner, so
    /// the adaptive policy starts from what the demo knows of the network:
    /// its estimator's prior is `expectedLoadTime` (the injected 99th
    /// percentile), the figure it would otherwise learn within a few loads.
    ///
    /// - Parameter expectedLoadTime: the slow end of the load durations.
    public func prefetchPolicy(expectedLoadTime: Duration) -> PrefetchPolicy {
        switch self {
        case .adaptive:
            .custom(
                AdaptivePrefetchPolicy(loadTimeQuantile: 0.99, initialLoadDuration: expectedLoadTime))
        case .system, .texture, .none: simulationStrategy.prefetchPolicy ?? .system
        }
    }
}
