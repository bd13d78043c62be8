/// A ``Pager`` as the data source and prefetch data source of a headless
/// ``TableView`` or ``CollectionView``: page-at-a-time loading next to
/// per-item prefetching.
///
/// - `numberOfItems` is the pager's row count: placeholders included when the
///   server reports a total count (the view sizes itself at once), loaded
///   items only when it does not, plus a footer row while the last load failed.
/// - `cellForItemAt` configures a ``PagedCell`` with the row's item, as a
///   placeholder, or as a failure whose retry action calls ``retry()``; it
///   tells the pager the row was shown (``Pager/accessed(index:)``), with the
///   view's scroll speed and the pager's observed page latency once there is
///   one, so that its adaptive trigger can ask for the next page early enough.
/// - Prefetched rows are reported to the pager the same way: the farthest one
///   of each call.
/// - When the pager changes, the view is updated on the main actor without
///   losing its place: with placeholders the rows whose page landed are
///   reloaded; without them the new rows are inserted (dropped ones deleted)
///   in a batch, and a change above the visible rows keeps the visible rows
///   where they are. Only a first load or a refresh that lands reloads the
///   data. The decision is ``PagedListUpdate``'s.
///
/// The view is answered from the snapshot it was last updated to, never from
/// the live pager, so its counts and its cells always agree.
///
/// ```swift
/// let pager = Pager<Post>(configuration: PagingConfiguration(pageSize: 20)) { request in
///     try await api.posts(request)
/// }
/// let dataSource = PagedDataSource(pager: pager)
/// dataSource.attach(to: tableView)
/// pager.start(firstScreenItemCount: 12)   // what the first screen shows: it loads first
/// ```

public import Lookahead

@MainActor
public final class PagedDataSource<Item: Identifiable & Sendable> {
    /// The reuse identifier the cells are registered under.
    public nonisolated static var reuseIdentifier: String { "PagedDataSource.PagedCell" }

    /// The pager whose rows are shown.
    public let pager: Pager<Item>

    /// The rows the view was last updated to: what it shows.
    public private(set) var displayed = PagedListSnapshot<Item>()

    /// The scroll speed, in rows per second, measured on the view's frames.
    package private(set) var speed = VelocityEstimator()

    /// The table or collection view it is attached to.
    private weak var view: ItemScrollView?
    /// Whether pager changes reach the view by themselves; tests turn it off
    /// to apply them at chosen moments with `applyChanges()`.
    package var appliesChangesAutomatically = true

    /// Creates a data source over `pager`. Call `attach(to:)` next.
    ///
    /// Replaces the pager's `onChange`: the data source updates the view from it.
    public init(pager: Pager<Item>) {
        self.pager = pager
        pager.observeOnMainActor { [weak self] in
            guard let self, self.appliesChangesAutomatically else { return }
            self.applyChanges()
        }
    }

    /// Registers the cells and becomes the table's data source and prefetch
    /// data source. The view holds it weakly: keep it alive yourself.
    public func attach(to tableView: TableView) {
        adopt(tableView)
        tableView.register(PagedCell<Item>.self, forCellReuseIdentifier: Self.reuseIdentifier)
        tableView.dataSource = self
        tableView.prefetchDataSource = self
    }

    /// Registers the cells and becomes the collection view's data source and
    /// prefetch data source. The view holds it weakly: keep it alive yourself.
    public func attach(to collectionView: CollectionView) {
        adopt(collectionView)
        collectionView.register(PagedCell<Item>.self, forCellWithReuseIdentifier: Self.reuseIdentifier)
        collectionView.dataSource = self
        collectionView.prefetchDataSource = self
    }

    /// Loads the failed pages again: what a failed cell's retry button does.
    public func retry() {
        pager.retry()
    }

    /// Brings the view up to date with the pager now, rather than in the
    /// main-actor task a pager change schedules.
    ///
    /// - Complexity: O(visible + inserted + deleted rows), plus the view's update.
    public func applyChanges() {
        let new = pager.snapshot
        guard let engine else {
            displayed = new
            return
        }
        let visible = engine.visiblePaths.map(\.item)
        switch PagedListUpdate.between(displayed, new, visibleRows: visible) {
        case .none:
            // Rows off screen may have changed; they are configured when they appear.
            displayed = new
        case .reloadData:
            displayed = new
            engine.reloadData()
            engine.layoutIfNeeded()
        case .batch(let deletes, let inserts, let reloads):
            apply(deletes: deletes, inserts: inserts, reloads: reloads, to: new, in: engine)
        }
    }

    // MARK: - Updating the view

    private var engine: ItemViewEngine? {
        view?.engine
    }

    /// Starts showing the pager's rows in `view`, in place of any other view.
    private func adopt(_ view: ItemScrollView) {
        self.view = view
        displayed = pager.snapshot
    }

    private func apply(
        deletes: [Int], inserts: [Int], reloads: [Int], to new: PagedListSnapshot<Item>, in engine: ItemViewEngine
    ) {
        let anchor = scrollAnchor(to: new, in: engine)
        engine.performBatchUpdates {
            displayed = new
            if !deletes.isEmpty { engine.deleteItems(at: deletes.map { ItemPath(item: $0, section: 0) }) }
            if !inserts.isEmpty { engine.insertItems(at: inserts.map { ItemPath(item: $0, section: 0) }) }
            if !reloads.isEmpty { engine.reloadItems(at: reloads.map { ItemPath(item: $0, section: 0) }) }
            if let anchor { engine.setContentOffset(anchor) }
        }
        // Clamped to the old content inside the batch: set it again on the new one.
        if let anchor, engine.contentOffset != anchor {
            engine.setContentOffset(anchor)
            engine.layoutIfNeeded()
        }
    }

    /// The content offset that keeps the first visible row in place when rows
    /// come or go above it, or `nil` when none do.
    private func scrollAnchor(to new: PagedListSnapshot<Item>, in engine: ItemViewEngine) -> Point? {
        let shift = displayed.origin - new.origin
        guard shift != 0, let delegate = engine.delegate,
            let first = engine.visiblePaths.first(where: { (0..<new.count).contains($0.item + shift) })
        else { return nil }
        let oldFrame = engine.currentLayout.frame(at: first)
        let newLayout = delegate.engineMakeLayout(itemCounts: [new.count], width: engine.viewportSize.width)
        let newFrame = newLayout.frame(at: ItemPath(item: first.item + shift, section: 0))
        let offset = engine.contentOffset
        return Point(x: offset.x, y: offset.y + newFrame.origin.y - oldFrame.origin.y)
    }

    // MARK: - Serving the view (see ItemScrollViewDataSource)

    func numberOfItems(inSection section: Int) -> Int {
        section == 0 ? displayed.count : 0
    }

    func configuredCell(_ dequeued: Cell, at path: ItemPath) -> Cell {
        guard let cell = dequeued as? PagedCell<Item> else {
            preconditionFailure(
                "PagedDataSource: expected a PagedCell<\(Item.self)> for reuse identifier \(Self.reuseIdentifier), "
                    + "got \(type(of: dequeued)); call attach(to:)")
        }
        precondition(
            path.section == 0 && path.item >= 0 && path.item < displayed.count,
            "PagedDataSource: asked for a cell at \(path), but there are \(displayed.count) rows in section 0")
        let row = path.item
        switch displayed.row(at: row) {
        case .item:
            let item = displayed.item(at: row)!
            cell.representedIdentifier = AnyHashable(item.id)
            cell.configure(with: .item(item))
        case .placeholder:
            cell.representedIdentifier = nil
            cell.configure(with: .placeholder)
        case .failed(let message):
            cell.representedIdentifier = nil
            cell.configure(with: .failed(message)) { [weak self] in self?.retry() }
        }
        reportAccess(toRow: row)
        return cell
    }

    /// Tells the pager the row was shown or is about to be, translated from
    /// the displayed snapshot's rows to the pager's current ones.
    private func reportAccess(toRow row: Int) {
        let positional = displayed.leadingPlaceholderCount + displayed.items.count + displayed.trailingPlaceholderCount
        guard row < positional else { return }  // the footer
        let index = row + displayed.origin - pager.snapshot.origin
        if let latency = pager.observedPageLatency {
            pager.accessed(index: index, velocity: speed.velocity, observedPageLatency: latency)
        } else {
            pager.accessed(index: index)
        }
    }

    /// Samples the scroll speed where the view's time and offset agree: in
    /// its prefetch calls, made at the end of a layout pass.
    private func sampleSpeed() {
        guard let engine else { return }
        let layout = engine.currentLayout
        let height = layout.contentSize.height
        guard height > 0, layout.totalItemCount > 0 else { return }
        let position = engine.contentOffset.y / height * Double(layout.totalItemCount)
        speed.record(position: position, at: engine.time)
    }

    func prefetch(_ paths: [ItemPath]) {
        sampleSpeed()
        if let farthest = paths.last, farthest.section == 0, farthest.item < displayed.count {
            reportAccess(toRow: farthest.item)
        }
    }

    /// Only samples the speed: a cancel says nothing of where the pager stands.
    func cancelPrefetching(_ paths: [ItemPath]) {
        sampleSpeed()
    }
}

extension PagedDataSource: CollectionViewDataSource, CollectionViewDataSourcePrefetching, TableViewDataSource,
    TableViewDataSourcePrefetching, ItemScrollViewDataSource
{}
