// Paging through the coordinator: the rows a real table or collection view
// shows and prefetches are reported to a Pager, with the scroll speed, as
// PagedDataSource does for the headless views.

/// How a ``PrefetchCoordinator`` tells a ``Pager`` which rows the user
/// reaches, so that the next page is asked for early enough.
///
/// Rows are section 0's items, the rows of the pager's snapshot the app last
/// applied to the view; the link translates them to the pager's current
/// positions when pages were prepended or dropped since.
@MainActor
struct PagingLink {
    /// Tells the pager that the row at a pager index was reached, at a speed in rows per second.
    let access: @MainActor (_ index: Int, _ rowsPerSecond: Double) -> Void
    /// The pager's current origin (``PagedListSnapshot/origin``).
    let origin: @MainActor () -> Int
    /// The origin of the rows the view shows.
    var displayedOrigin: Int
    /// The scroll speed in rows per second, from the frames planned.
    var speed = VelocityEstimator()

    /// A cell for `path` was asked for.
    func accessed(_ path: ItemPath) {
        guard path.section == 0, path.item >= 0 else { return }
        access(path.item + displayedOrigin - origin(), speed.velocity)
    }

    /// A frame was planned: samples the speed and reports the farthest
    /// prefetched row in the direction of travel.
    mutating func scrolled(_ frame: ScrollFrame, prefetched: [ItemPath], layout: any CollectionLayout) {
        let height = layout.contentSize.height
        let count = layout.totalItemCount
        if height > 0, count > 0 {
            speed.record(position: frame.visibleRect.minY / height * Double(count), at: frame.time)
        }
        let rows = prefetched.filter { $0.section == 0 }
        if let farthest = frame.velocity < 0 ? rows.min() : rows.max() { accessed(farthest) }
    }

    /// The app applied the pager's snapshot (a reload or a batch of updates).
    mutating func listChanged() {
        displayedOrigin = origin()
        speed.reset()
    }
}
