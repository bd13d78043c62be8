#if canImport(UIKit)
    import UIKit

    /// A collection view with a flow layout of `columns` equal columns, its
    /// prefetch data source and delegate logging every call.
    final class LoggingCollectionViewController: UICollectionViewController,
        UICollectionViewDataSourcePrefetching, UICollectionViewDelegateFlowLayout
    {
        private let configuration: HarnessConfiguration
        private let log: PrefetchEventLog

        init(configuration: HarnessConfiguration) {
            self.configuration = configuration
            log = PrefetchEventLog(configuration: configuration)
            let layout = UICollectionViewFlowLayout()
            layout.minimumInteritemSpacing = 0
            layout.minimumLineSpacing = 0
            super.init(collectionViewLayout: layout)
        }

        @available(*, unavailable)
        required init?(coder: NSCoder) {
            fatalError("UIKitPrefetchLog builds its views in code")
        }

        override func viewDidLoad() {
            super.viewDidLoad()
            collectionView.accessibilityIdentifier = "prefetch-log-view"
            collectionView.register(UICollectionViewCell.self, forCellWithReuseIdentifier: "cell")
            collectionView.prefetchDataSource = self
            collectionView.isPrefetchingEnabled = true
        }

        override func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int) -> Int {
            configuration.itemCount
        }

        override func collectionView(
            _ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath
        ) -> UICollectionViewCell {
            log.record("cell", items: [indexPath.item], in: collectionView)
            let cell = collectionView.dequeueReusableCell(withReuseIdentifier: "cell", for: indexPath)
            cell.backgroundColor = indexPath.item % 2 == 0 ? .systemGray5 : .systemGray4
            return cell
        }

        func collectionView(
            _ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
            sizeForItemAt indexPath: IndexPath
        ) -> CGSize {
            let width = (collectionView.bounds.width / CGFloat(configuration.columns)).rounded(.down)
            return CGSize(width: width, height: configuration.rowHeight)
        }

        func collectionView(_ collectionView: UICollectionView, prefetchItemsAt indexPaths: [IndexPath]) {
            log.record("prefetch", items: indexPaths.map(\.item), in: collectionView)
        }

        func collectionView(_ collectionView: UICollectionView, cancelPrefetchingForItemsAt indexPaths: [IndexPath]) {
            log.record("cancel", items: indexPaths.map(\.item), in: collectionView)
        }

        override func collectionView(
            _ collectionView: UICollectionView, willDisplay cell: UICollectionViewCell, forItemAt indexPath: IndexPath
        ) {
            log.record("willDisplay", items: [indexPath.item], in: collectionView)
        }

        override func collectionView(
            _ collectionView: UICollectionView, didEndDisplaying cell: UICollectionViewCell,
            forItemAt indexPath: IndexPath
        ) {
            log.record("didEndDisplaying", items: [indexPath.item], in: collectionView)
        }

        override func scrollViewDidScroll(_ scrollView: UIScrollView) {
            log.recordOffset(of: scrollView)
        }
    }
#endif
