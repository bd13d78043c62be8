// Paging through the coordinator: one call hands it a Pager.

extension PrefetchCoordinator {
    /// Pages `pager` through this coordinator: the rows cells are asked for
    /// and the farthest rows prefetched are reported to the pager
    /// (``Pager/accessed(index:velocity:observedPageLatency:)`` once a page
    /// has loaded), with the scroll speed measured on the planned frames.
    ///
    /// The view shows the pager's rows in section 0. Apply the pager's
    /// changes to the view (a diffable data source snapshot, or batch
    /// updates from ``PagedListUpdate``), then call ``reloadData()`` or
    /// ``applyUpdates(newPath:)``.
    public func drivePaging<Item>(with pager: Pager<Item>) {
        paging = PagingLink(
            access: { index, rowsPerSecond in
                guard index >= 0 else { return }
                if let latency = pager.observedPageLatency {
                    pager.accessed(index: index, velocity: rowsPerSecond, observedPageLatency: latency)
                } else {
                    pager.accessed(index: index)
                }
            },
            origin: { pager.snapshot.origin },
            displayedOrigin: pager.snapshot.origin)
    }
}
