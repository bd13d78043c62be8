// What the load keys of a strategy stand for: shared by the simulator, the
// real replay and the metrics, so that a key covers the same items everywhere.

/// What a load key of a strategy stands for: one item, or a page of
/// ``SimulationStrategy/pageSize`` items.
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

    /// The keys of `strategy` over a list of `itemCount` items.
    package init(strategy: SimulationStrategy, itemCount: Int, pageSize: Int = SimulationStrategy.pageSize) {
        switch strategy {
        case .batch: kind = .pageNumber
        case .paged, .pagedFixed: kind = .pageOffset
        case .none, .all, .system, .nuke, .texture, .adaptive, .swiftui, .oracle: kind = .item
        }
        self.itemCount = itemCount
        self.pageSize = pageSize
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
        case .pageOffset: (start, count) = (key, pageSize)
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
        case .pageOffset: item - item % pageSize
        }
    }
}
