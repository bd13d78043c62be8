import LookaheadSimulation

/// What a load key of a replayed strategy stands for, as in the simulator:
/// one item, or a page of ``SimulationStrategy/pageSize`` items.
///
/// List indices are 0-based; the feed's ids are 1-based (index `i` is id `i + 1`).
struct ReplayKeys: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        /// The key is the item's index.
        case item
        /// The key is the page's number (`batch`): items `key·size ..< (key + 1)·size`.
        case pageNumber
        /// The key is the page's first index (`paged`, `paged-fixed`).
        case pageOffset
    }

    let kind: Kind
    let itemCount: Int
    let pageSize: Int

    init(strategy: SimulationStrategy, itemCount: Int, pageSize: Int = SimulationStrategy.pageSize) {
        switch strategy {
        case .batch: kind = .pageNumber
        case .paged, .pagedFixed: kind = .pageOffset
        case .none, .all, .system, .nuke, .texture, .adaptive, .oracle: kind = .item
        }
        self.itemCount = itemCount
        self.pageSize = pageSize
    }

    /// Whether keys are pages.
    var isPaged: Bool { kind != .item }

    /// The list indices a key covers.
    ///
    /// - Complexity: O(1).
    func items(ofKey key: Int) -> Range<Int> {
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
}
