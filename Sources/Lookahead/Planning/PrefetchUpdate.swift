// The change a planning step makes to what is held prefetched: one type for
// the planner (index paths), the nested planner (row and item) and the
// SwiftUI window (row indices).

/// The change one planning step makes to the prefetched set: what to start
/// prefetching and what to cancel.
///
/// `PrefetchPlanner` answers with index paths (`PrefetchPlanner.Update`),
/// `ScrollViewPrefetcherStateMachine` with row indices
/// (`ScrollViewPrefetcherStateMachine.Update`), `NestedPrefetchPlanner`
/// with a row and an item (`NestedPrefetchPlanner.Update`): the same
/// change, in the index each one plans over.
package struct PrefetchUpdate<Index: Hashable & Sendable>: Hashable, Sendable {
    /// Items to start prefetching, in the order to ask for them (nearest or
    /// most urgent first).
    public var prefetch: [Index]
    /// Items to stop prefetching: asked for, then left the window without
    /// being displayed.
    public var cancel: [Index]

    /// Creates an update.
    public init(prefetch: [Index] = [], cancel: [Index] = []) {
        self.prefetch = prefetch
        self.cancel = cancel
    }

    /// Whether there is nothing to prefetch and nothing to cancel.
    public var isEmpty: Bool { prefetch.isEmpty && cancel.isEmpty }
}
