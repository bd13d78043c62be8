/// What a driver tells the loader of an attempt the scheduler started: which
/// attempt of its load it is, and whether anybody waits for its value.
extension FetchScheduler {
    /// Attempt `id`, on its `.start`: its number (1 for the first, one more
    /// after each failure; a hedge counts as the attempt it races), whether
    /// it is a hedge, and whether an active interest's payload satisfies
    /// `isWaiting` (a display request, a caller awaiting the value: the
    /// load is then not a prefetch).
    ///
    /// - Complexity: O(interests in the load).
    @inlinable
    package func attempt(_ id: LoadID, isWaiting: (Payload) -> Bool) -> (number: Int, isHedge: Bool, isWaited: Bool) {
        guard id.slot < loads.count, let record = loads[id.slot] else { return (1, false, false) }
        var waited = false
        var interest = record.head
        while interest >= 0, !waited {
            if interests[interest].isAdmitted, let payload = payloads[interest] { waited = isWaiting(payload) }
            interest = interests[interest].loadNext
        }
        return (record.failures + 1, isHedge(id), waited)
    }
}
