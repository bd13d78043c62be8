// One call to put the adaptive planner on a real UICollectionView or
// UITableView: the coordinator reads the view's layout, observes its
// scrolling through a delegate proxy, and memory warnings reach the caches. Compiled
// only where UIKit exists.

#if canImport(UIKit) && !os(watchOS)
public import Lookahead
public import UIKit

extension PrefetchCoordinator {
    /// Creates a coordinator attached to `collectionView`: item frames
    /// come from its layout (any layout), its scrolling is observed
    /// through a proxy that forwards every delegate call to the delegate
    /// the collection view had (set yours first), cells leaving the
    /// screen withdraw their display requests, and memory warnings and
    /// the app going to the background trim the caches that trim on
    /// memory pressure (the fetcher's, by default).
    ///
    /// The proxy holds your delegate weakly (holding it would make a
    /// cycle through the coordinator), and UIKit asks a delegate which
    /// methods it implements only when it is set: your delegate must
    /// outlive the view, as a view controller that owns its collection
    /// view does. The view keeps the proxy: your delegate keeps getting
    /// its calls whether the coordinator lives or not. Set your delegate (or
    /// an IGListKit adapter's `collectionView`) first, and nothing needs
    /// noticing.
    ///
    /// A view has one proxy whatever you do: a coordinator made again for
    /// the view (a new feed, setup run again) takes it over, and the
    /// earlier one's `detach()` or release changes nothing. A delegate set
    /// after the coordinator — yours, or an IGListKit adapter's — cuts the
    /// proxy off; the coordinator notices when its cells keep asking while
    /// the proxy hears nothing, wraps the new delegate, and says so in a
    /// debug build. A proxy set after it that forwards to the delegate it
    /// found (RxCocoa's `rx`) keeps it connected as it is.
    ///
    /// ```swift
    /// coordinator = PrefetchCoordinator(fetcher: fetcher, collectionView: collectionView) { path in
    ///     items.indices.contains(path.item) ? items[path.item].id : nil
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - fetcher: loads the items.
    ///   - collectionView: the view; held weakly.
    ///   - policy: which items to hold prefetched; adaptive by default.
    ///   - clock: the clock frames are timed on.
    ///   - key: the key of the item at an index path, or `nil`.
    public convenience init(
        fetcher: AsyncFetcher<Key, Value>,
        collectionView: UICollectionView,
        policy: PrefetchPolicy = .adaptive,
        clock: some Clock<Duration> = ContinuousClock(),
        key: @escaping @MainActor (ItemPath) -> Key?
    ) {
        self.init(
            fetcher: fetcher, layoutSource: CollectionViewLayoutSource(collectionView), policy: policy, key: key)
        observeScrolling(of: collectionView, clock: clock)
    }

    /// Creates a coordinator attached to `tableView`; see
    /// ``init(fetcher:collectionView:policy:clock:key:)``.
    public convenience init(
        fetcher: AsyncFetcher<Key, Value>,
        tableView: UITableView,
        policy: PrefetchPolicy = .adaptive,
        clock: some Clock<Duration> = ContinuousClock(),
        key: @escaping @MainActor (ItemPath) -> Key?
    ) {
        self.init(fetcher: fetcher, layoutSource: TableViewLayoutSource(tableView), policy: policy, key: key)
        observeScrolling(of: tableView, clock: clock)
    }

    /// Takes the coordinator off its view: the view's delegate is the
    /// app's again (unless the app replaced it since), and the
    /// coordinator's prefetches are withdrawn (loads already running
    /// finish). It plans nothing more unless you report scrolling to it
    /// yourself. A coordinator that goes away without it hands the view
    /// back to the app's delegate at the view's next delegate call.
    public func detach() {
        viewAttachment?.detach(self)
        viewAttachment = nil
        attachments = []
        isPaused = true
    }

    /// Asks for the value of the item at `indexPath` for `cell`: call it
    /// from `cellForItemAt` / `cellForRowAt`. See
    /// `PrefetchCoordinator.requestDisplay(at:for:completion:)`: the request
    /// belongs to the cell, so a reused cell needs no cancel of its own.
    ///
    /// ```swift
    /// coordinator.requestDisplay(at: indexPath, for: cell) { [weak cell] result in
    ///     if case .success(let item) = result { cell?.show(item) }
    /// }
    /// ```
    @discardableResult
    public func requestDisplay(
        at indexPath: IndexPath, for cell: UIView,
        completion: @escaping @MainActor @Sendable (Result<Value, any Error>) -> Void
    ) -> FetchTask? {
        requestDisplay(at: ItemPath(indexPath), for: cell, completion: completion)
    }

    /// Asks for the value of `key`, the item at `indexPath`, for `cell`: call
    /// it from a cell registration's handler, which is handed the item's
    /// identifier. See `PrefetchCoordinator.requestDisplay(of:at:for:completion:)`.
    @discardableResult
    public func requestDisplay(
        of key: Key, at indexPath: IndexPath, for cell: UIView,
        completion: @escaping @MainActor @Sendable (Result<Value, any Error>) -> Void
    ) -> FetchTask? {
        requestDisplay(of: key, at: ItemPath(indexPath), for: cell, completion: completion)
    }

    /// The items changed: `snapshot` is what a diffable data source shows
    /// after the change (before or after you apply it). See
    /// `PrefetchCoordinator.applyUpdates(to:)`: every request follows its
    /// item's identifier, those of items gone are withdrawn, nothing else
    /// restarts.
    ///
    /// <!-- snippet: declarations -->
    /// ```swift
    /// @MainActor
    /// func append(_ page: [Item]) {
    ///     var snapshot = dataSource.snapshot()
    ///     snapshot.appendItems(page.map(\.id))
    ///     coordinator.applyUpdates(to: snapshot)
    ///     dataSource.apply(snapshot)
    /// }
    /// ```
    ///
    /// Call it on the main actor; a snapshot a data source applies on a
    /// queue of its own is told here from the main actor, before or after.
    public func applyUpdates<Section: Hashable & Sendable>(to snapshot: NSDiffableDataSourceSnapshot<Section, Key>) {
        applyUpdates(to: snapshot.sectionIdentifiers.map { snapshot.itemIdentifiers(inSection: $0) })
    }

    /// The app is about to scroll `scrollView` with an animation to
    /// `targetContentOffset`: call it just before `setContentOffset(_:animated: true)`,
    /// `scrollToItem(at:at:animated: true)` or `scrollRectToVisible(_:animated: true)`,
    /// timed on the attached clock. The end of the animation, and a tap
    /// on the status bar, the attached coordinator hears by itself. See
    /// `PrefetchCoordinator.scrollViewWillAnimateScroll(to:contentOffset:viewportSize:at:)`.
    ///
    /// ```swift
    /// let target = CGPoint(x: 0, y: -collectionView.adjustedContentInset.top)
    /// coordinator.scrollViewWillAnimateScroll(collectionView, to: target)
    /// collectionView.setContentOffset(target, animated: true)
    /// ```
    ///
    /// Does nothing for a coordinator not made with `collectionView:` or `tableView:`.
    public func scrollViewWillAnimateScroll(_ scrollView: UIScrollView, to targetContentOffset: CGPoint) {
        let proxy = attachments.lazy.compactMap { $0 as? ScrollViewDelegateProxy }.first
        proxy?.scrollViewWillAnimateScroll(scrollView, to: targetContentOffset)
    }

    /// Makes the delegate proxy that reports `scrollView`'s scrolling to
    /// this coordinator, timed on `clock`, and forwards every call to the
    /// delegate the view had; the view keeps the proxy alive while it is
    /// attached. Memory warnings and the app going to the background
    /// reach the caches from now on.
    private func observeScrolling(of scrollView: UIScrollView, clock: some Clock<Duration>) {
        let start = clock.now
        // The view's one proxy: a coordinator made for it before gives it up.
        let attached = DelegateAttachment.attach(self, to: scrollView) { ScrollViewDelegateProxy() }
        guard let proxy = attached as? ScrollViewDelegateProxy else { return }
        proxy.now = { start.duration(to: clock.now) }
        proxy.attachment.onDiagnostic = { AttachmentDiagnostics.report($0) }
        viewAttachment = proxy.attachment
        attachments = [proxy]
        SystemMemoryEvents.start()
    }
}
#endif
