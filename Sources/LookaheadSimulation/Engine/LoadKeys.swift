// What the load keys of a strategy stand for: shared by the simulator, the
// real replay and the metrics, so that a key covers the same items everywhere.

import Lookahead

/// What a load key of a strategy stands for: one item, or a page of
/// ``SimulationStrategy/pageSize`` items — for the pager's strategies the
/// first page cut to the first screen (`firstPageSize`) and the rest of it
/// (see ``PagingStateMachine/start(firstScreenItemCount:)``).
///
/// List indices are 0-based; the feed's ids are 1-based (index `i` is id `i + 1`).
package struct LoadKeys: Sendable, Hashable {
    /// How keys name what they load.
    package enum Kind: Sendable, Hashable {
        /// The key is the item's index.
        case item
        /// The key is the page's number (`batch`): items `key·size ..< (key + 1)·size`.
        case pageNumber
        /// The key is the page's first index (`paged`, `paged-fixed`).
        case pageOffset
    }

    package let kind: Kind
    package let itemCount: Int
    package let pageSize: Int
    /// The items of the first page of a `.pageOffset` list (at most `pageSize`);
    /// when fewer, key `firstPageSize` covers the rest of the first page and
    /// the page after it (`2 × pageSize` in all): the simulator's pager loads
    /// one page first and asks for the next within a page of the end, so the
    /// rest always carries it (``PagingStateMachine/start(firstScreenItemCount:)``).
    package let firstPageSize: Int

    /// The keys of `strategy` over a list of `itemCount` items, the pager's
    /// first page cut to `firstScreenItemCount` items when given.
    package init(
        strategy: SimulationStrategy, itemCount: Int, pageSize: Int = SimulationStrategy.pageSize,
        firstScreenItemCount: Int? = nil
    ) {
        switch strategy {
        case .batch: kind = .pageNumber
        case .paged, .pagedFixed: kind = .pageOffset
        case .none, .all, .system, .nuke, .texture, .adaptive, .swiftui, .oracle: kind = .item
        }
        self.itemCount = itemCount
        self.pageSize = pageSize
        firstPageSize = kind == .pageOffset ? max(1, min(pageSize, firstScreenItemCount ?? pageSize)) : pageSize
    }

    /// The keys of `strategy` over `scenario`'s list: the pager's first page
    /// is what the scenario's first frame shows, as an app tells its pager.
    package init(strategy: SimulationStrategy, scenario: SimulationScenario) {
        self.init(strategy: strategy, visibility: FrameVisibility(scenario: scenario))
    }

    /// The keys of `strategy` over the list `visibility` shows, the pager's
    /// first page its first frame.
    init(strategy: SimulationStrategy, visibility: FrameVisibility) {
        self.init(
            strategy: strategy, itemCount: visibility.layout.totalItemCount,
            firstScreenItemCount: strategy.loadsPagesThroughPager ? visibility.firstScreenItemCount : nil)
    }

    /// Whether keys are pages.
    package var isPaged: Bool { kind != .item }

    /// The list indices a key covers.
    ///
    /// - Complexity: O(1).
    package func items(ofKey key: Int) -> Range<Int> {
        let start: Int
        let count: Int
        switch kind {
        case .item: (start, count) = (key, 1)
        case .pageNumber: (start, count) = (key * pageSize, pageSize)
        case .pageOffset:
            // Key 0 is the first screen; the key after it, the rest of the first page and the next.
            (start, count) = (key, key == 0 ? firstPageSize : key < pageSize ? 2 * pageSize - key : pageSize)
        }
        let lower = min(max(start, 0), itemCount)
        return lower..<min(itemCount, lower + count)
    }

    /// The key whose load covers `item`.
    ///
    /// - Complexity: O(1).
    package func key(ofItem item: Int) -> Int {
        switch kind {
        case .item: item
        case .pageNumber: item / pageSize
        case .pageOffset:
            item < firstPageSize
                ? 0 : item < 2 * pageSize && firstPageSize < pageSize ? firstPageSize : item - item % pageSize
        }
    }
}
