// Moving a coordinator's bookkeeping by index path through a batch update:
// what PrefetchCoordinator and NestedPrefetchCoordinator do to the keys of
// their outstanding prefetches.

extension Dictionary {
    /// The entries under the keys `newKey` gives them, and the values of the
    /// entries it drops (`nil`): for a table by index path after a batch
    /// update, the entries of moved items and those of deleted ones.
    ///
    /// - Complexity: O(n) calls to `newKey`.
    func remappingKeys(_ newKey: (Key) -> Key?) -> (moved: [Key: Value], dropped: [Value]) {
        var moved: [Key: Value] = [:]
        var dropped: [Value] = []
        for (key, value) in self {
            if let new = newKey(key) { moved[new] = value } else { dropped.append(value) }
        }
        return (moved, dropped)
    }
}
