// A pager's changes delivered on the main actor, coalesced: what the views
// that show a pager (`PagedDataSource`, SwiftUI's `ObservablePager`) need
// from its `onChange`.

extension Pager {
    /// Sets ``onChange`` to run `update` on the main actor, once for all the
    /// changes that arrive before it runs.
    ///
    /// A page landing changes the items and the load states in quick
    /// succession, from the pager's threads; a view wants the latest snapshot
    /// once, not a main-actor hop per change. The pager holds `update`:
    /// capture its owner weakly.
    package func updateOnMainActor(_ update: @escaping @MainActor @Sendable () -> Void) {
        let isScheduled = LockedValue(false)
        onChange = {
            let alreadyScheduled = isScheduled.withLock { scheduled in
                defer { scheduled = true }
                return scheduled
            }
            guard !alreadyScheduled else { return }
            Task { @MainActor in
                isScheduled.withLock { $0 = false }
                update()
            }
        }
    }
}
