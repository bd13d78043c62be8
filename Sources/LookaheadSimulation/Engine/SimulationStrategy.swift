public import Lookahead

// The strategies the simulator, the real replay and the demo compare, and
// the policy each one's window is: the one strategy→policy map.

/// A way of loading a list's data, as the simulator compares them.
///
/// Every strategy's items load through the same ``FetchScheduler`` (one load
/// per item, the scenario's concurrency limit) and the same network; cells
/// that are visible without their data ask for it at `.high` priority (or
/// what the adaptive policy advises) in every strategy but those that load
/// pages, whose pages carry the items. They differ in what they ask for
/// ahead of time. `paged` and `paged-fixed` load their pages as the runtime
/// ``Pager`` does: each page on its own, outside the fetcher's limit (on the
/// same link), retried only by the ``PagingStateMachine``'s `.retry`. One
/// ``StrategyDriver`` drives them all, in the simulator and the real replay.
public enum SimulationStrategy: String, CaseIterable, Sendable, Codable {
    /// Load in `cellForItemAt` only: nothing ahead of time.
    case none
    /// Ask for every item at the start (under the same concurrency limit).
    case all
    /// The pagination tutorial: pages of 15 items, the next one requested
    /// when the last loaded item is displayed.
    case batch
    /// UIKit's prefetch window (`PrefetchPolicy.system`) at `.normal` priority.
    case system
    /// Nuke's ImagePrefetcher: UIKit's window, 2 prefetches at a time, `.low` priority.
    case nuke
    /// Texture's preload range: 2.5 screens ahead, 1.5 behind.
    case texture
    /// Lookahead's own: each item in time for its predicted appearance (`PrefetchPolicy.adaptive`).
    case adaptive
    /// The SwiftUI path as shipped before iOS 18: a coordinator made with
    /// `PrefetchCoordinator(fetcher:)` under `.lookaheadPrefetching`, whose
    /// only news of the scroll is the rows SwiftUI makes (``RowAppearance``):
    /// the adaptive planner fed where they say the list is, with no
    /// velocity reported and no landing. (On iOS 18 the scroll view's
    /// geometry drives it: that is `adaptive`.)
    case swiftui
    /// Lookahead's pages (`PagingStateMachine`): one page at first (on a slow
    /// link a 3-page first load keeps the first screen blank longer), the next
    /// one when the user is predicted to reach the end within a page's latency.
    case paged
    /// The same pages, the next one asked for a page before the end (Paging 3's default).
    case pagedFixed = "paged-fixed"
    /// Knows the whole trace and every latency; asks only for items that
    /// will be seen, earliest appearance first, under the same limits.
    case oracle

    /// Items per page for `batch`, `paged` and `paged-fixed`.
    public static let pageSize = 15

    /// Whether the strategy loads pages rather than items.
    public var loadsPages: Bool { self == .batch || self == .paged || self == .pagedFixed }

    /// Whether pages load through `PagingStateMachine` (`paged`, `paged-fixed`).
    public var loadsPagesThroughPager: Bool { self == .paged || self == .pagedFixed }

    /// The prefetch window a ``PrefetchPlanner`` follows for this strategy,
    /// or `nil` when the strategy has no planner (it asks for nothing ahead,
    /// for everything, for pages, or follows a ``ScrollViewPrefetcher``).
    public var prefetchPolicy: PrefetchPolicy? {
        switch self {
        case .system, .nuke: .system
        case .texture: .screens(leading: 2.5, trailing: 1.5)
        case .adaptive: .adaptive
        case .none, .all, .batch, .swiftui, .paged, .pagedFixed, .oracle: nil
        }
    }

    /// How an app's fetcher hedges slow loads under this strategy
    /// (`AsyncFetcher(hedging:)`): for `adaptive`, as it ships
    /// (``AdaptiveSettings/fetcherHedging``); for the others, not at all —
    /// UIKit's, Nuke's and Texture's prefetchers do not hedge. What the
    /// simulator's loader, the real replay's fetcher and the demo's grids do.
    public var fetcherHedging: FetchHedging {
        self == .adaptive ? AdaptiveSettings.shipped().fetcherHedging : .off
    }

    /// Whether the strategy runs on `layout`. On a feed of carousels
    /// (``SimulationScenario/Layout/carousels(rows:)``) pages of a flat index
    /// mean nothing and the SwiftUI window watches one axis, so `batch`,
    /// `paged`, `paged-fixed` and `swiftui` sit it out; the others plan with
    /// a nested planner there (see `StrategyDriver+Carousels.swift`).
    public func runs(on layout: SimulationScenario.Layout) -> Bool {
        guard case .carousels = layout else { return true }
        return !loadsPages && self != .swiftui
    }

    /// Whether the strategy's prefetches go through a `Prefetcher` (Nuke's
    /// `ImagePrefetcher`): at most 2 at a time, at `.low` priority.
    public var prefetchesThroughPrefetcher: Bool { self == .nuke }

    /// The pager's configuration for `paged` and `paged-fixed`: pages of
    /// ``pageSize`` items, one page at first.
    public static var pagingConfiguration: PagingConfiguration {
        PagingConfiguration(pageSize: pageSize, initialLoadSize: pageSize)
    }
}
