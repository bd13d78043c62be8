// A pager's changes delivered on the main actor, coalesced: what a view that
// shows a pager needs from its `onChange` (a UIKit screen, `PagedDataSource`,
// SwiftUI's `ObservablePager`).

extension Pager {
    /// Calls `update` on the main actor after the pager changes, once for
    /// all the changes that arrive before it runs: the way a screen applies
    /// a pager's pages.
    ///
    /// A page landing changes the items and the load states in quick
    /// succession, from the pager's threads; a screen wants the latest
    /// ``items`` once, not a main-actor hop per change. It takes the place
    /// of ``onChange`` (one or the other). The pager holds `update`: capture
    /// its owner weakly.
    ///
    /// ```swift
    /// pager.observeOnMainActor { print(pager.items.count) }
    /// ```
    public func observeOnMainActor(_ update: @escaping @MainActor @Sendable () -> Void) {
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
