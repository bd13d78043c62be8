#if Tools
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
    /// (``SimulationStrategy/prefetchPolicy``), as an app sets it.
    public var prefetchPolicy: PrefetchPolicy { simulationStrategy.prefetchPolicy ?? .system }

    /// Whether a ``PrefetchCoordinator`` plans the grid's prefetches, as in
    /// an app that adopts Lookahead's planner (`adaptive`), rather than the
    /// view's own prefetch data source, as UIKit's window (`system`) and a
    /// fixed range (`texture`) are used.
    public var plansWithCoordinator: Bool { self == .adaptive }

    /// How the grid's fetcher hedges slow loads: as the simulator's
    /// strategy does (``SimulationStrategy/fetcherHedging``), so that
    /// `adaptive` is shown as it ships.
    public var fetcherHedging: FetchHedging { simulationStrategy.fetcherHedging }
}
#endif
