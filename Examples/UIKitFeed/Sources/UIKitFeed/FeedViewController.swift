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
        /// The posts the collection view shows: the pager's rows as last applied.
        private var posts: [Post] = []

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
                cell.representedID = id
                guard fetcher.fetchedData(for: id) == nil else { return }
                // A display request at the planner's priority, withdrawn when the cell leaves.
                cell.request = coordinator.requestDisplay(at: indexPath) { [weak cell] result in
                    guard case .success(let body) = result, cell?.representedID == id else { return }
                    cell?.show(title: "Post \(id)", body: body)
                }
            }
            dataSource = UICollectionViewDiffableDataSource(collectionView: collectionView) { view, indexPath, id in
                view.dequeueConfiguredReusableCell(using: registration, for: indexPath, item: id)
            }

            // One call: the adaptive planner reads the layout and observes the scrolling.
            coordinator = PrefetchCoordinator(fetcher: fetcher, collectionView: collectionView) { [weak self] path in
                guard let posts = self?.posts, posts.indices.contains(path.item) else { return nil }
                return posts[path.item].id
            }
            coordinator.drivePaging(with: pager)
            coordinator.isSignpostingEnabled = true  // see prefetching in Instruments' Points of Interest

            pager.onChange = { [weak self] in
                Task { @MainActor [weak self] in self?.applyPager() }
            }
            pager.start()
        }

        /// Tells the coordinator that the items moved (appends keep their
        /// index paths), then applies the pager's rows as a snapshot: in that
        /// order, so that the requests of the cells the snapshot brings are
        /// not moved as old ones.
        private func applyPager() {
            let items = pager.items
            guard items.map(\.id) != posts.map(\.id) else { return }
            let oldIDs = posts.map(\.id)
            posts = items
            let newIndex = Dictionary(uniqueKeysWithValues: items.enumerated().map { ($1.id, $0) })
            coordinator.applyUpdates { path in
                guard oldIDs.indices.contains(path.item), let row = newIndex[oldIDs[path.item]] else { return nil }
                return ItemPath(item: row, section: 0)
            }
            var snapshot = NSDiffableDataSourceSnapshot<Int, Post.ID>()
            snapshot.appendSections([0])
            snapshot.appendItems(items.map(\.id))
            dataSource.apply(snapshot, animatingDifferences: false)
        }
    }
#endif
