// The feed screen: a UICollectionView (any layout; a list here) whose
// prefetching is the adaptive planner's, through one PrefetchCoordinator,
// and whose rows come a page at a time from a Pager, applied as diffable
// data source snapshots.

#if canImport(UIKit) && !os(watchOS)
    import Lookahead
    import LookaheadUIKit
    import UIKit

    /// A feed of posts whose bodies load ahead of the user.
    @MainActor
    public final class FeedViewController: UIViewController {
        private let fetcher: AsyncFetcher<Post.ID, PostBody>
        private let pager: Pager<Post>
        private var collectionView: UICollectionView!
        private var dataSource: UICollectionViewDiffableDataSource<Int, Post.ID>!
        private var coordinator: PrefetchCoordinator<Post.ID, PostBody>!

        public init() {
            let api = FeedAPI()
            fetcher = AsyncFetcher(maxConcurrentLoads: 6, hedging: .recommended) { id in try await api.body(of: id) }
            pager = Pager(configuration: PagingConfiguration(pageSize: 30)) { request in try await api.posts(request) }
            super.init(nibName: nil, bundle: nil)
        }

        @available(*, unavailable)
        required init?(coder: NSCoder) {
            fatalError("init(coder:) is not supported")
        }

        public override func viewDidLoad() {
            super.viewDidLoad()
            let layout = UICollectionViewCompositionalLayout.list(using: .init(appearance: .plain))
            collectionView = UICollectionView(frame: view.bounds, collectionViewLayout: layout)
            collectionView.autoresizingMask = [.flexibleWidth, .flexibleHeight]
            view.addSubview(collectionView)

            let registration = UICollectionView.CellRegistration<PostCell, Post.ID> { [weak self] cell, indexPath, id in
                guard let self else { return }
                cell.show(title: "Post \(id)", body: fetcher.fetchedData(for: id))
                // The cell's request, at the planner's priority: the coordinator
                // lowers it when the cell leaves and withdraws it when the cell is reused.
                coordinator.requestDisplay(of: id, at: indexPath, for: cell) { [weak cell] result in
                    if case .success(let body) = result { cell?.show(title: "Post \(id)", body: body) }
                }
            }
            dataSource = UICollectionViewDiffableDataSource(collectionView: collectionView) { view, indexPath, id in
                view.dequeueConfiguredReusableCell(using: registration, for: indexPath, item: id)
            }

            // One call: the adaptive planner reads the layout and observes the scrolling.
            coordinator = PrefetchCoordinator(fetcher: fetcher, collectionView: collectionView) { [weak self] path in
                self?.dataSource.itemIdentifier(for: IndexPath(path))
            }
            coordinator.drivePaging(with: pager)
            coordinator.isSignpostingEnabled = true  // see prefetching in Instruments' Points of Interest

            // Once per burst of changes, on the main actor.
            pager.observeOnMainActor { [weak self] in self?.showPages() }
            pager.start()
        }

        /// Applies the pager's rows as a snapshot: each page is an append, and
        /// every request follows its post by identifier — nothing on screen restarts.
        private func showPages() {
            var snapshot = NSDiffableDataSourceSnapshot<Int, Post.ID>()
            snapshot.appendSections([0])
            snapshot.appendItems(pager.items.map(\.id))
            guard snapshot.itemIdentifiers != dataSource.snapshot().itemIdentifiers else { return }
            coordinator.applyUpdates(to: snapshot)
            dataSource.apply(snapshot, animatingDifferences: false)
        }
    }
#endif
