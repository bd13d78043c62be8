// A grid whose delegate is set the way apps set it: a PrefetchCoordinator
// made for the view, made again (setup run twice) and the first released,
// then the app's own delegate set last. The status line shows what the app's
// delegate heard and how many loads the coordinator started, for the UI test.

#if canImport(UIKit)
import Lookahead
import LookaheadUIKit
import UIKit

@MainActor
final class DelegatesViewController: UIViewController, UICollectionViewDataSource, UICollectionViewDelegate {
    private let fetcher = AsyncFetcher<Int, String>(maxConcurrentLoads: 6) { item in
        try await Task.sleep(for: .milliseconds(100))
        return "Item \(item)"
    }
    private var collectionView: UICollectionView!
    private var coordinator: PrefetchCoordinator<Int, String>?
    private let status = UILabel()
    private var selected: Int?
    private var scrolls = 0

    override func viewDidLoad() {
        super.viewDidLoad()
        let layout = UICollectionViewFlowLayout()
        layout.itemSize = CGSize(width: 96, height: 96)
        collectionView = UICollectionView(frame: view.bounds, collectionViewLayout: layout)
        collectionView.autoresizingMask = [.flexibleWidth, .flexibleHeight]
        collectionView.accessibilityIdentifier = "grid"
        collectionView.register(UICollectionViewListCell.self, forCellWithReuseIdentifier: "item")
        collectionView.dataSource = self
        view.addSubview(collectionView)
        status.accessibilityIdentifier = "status"
        status.frame = CGRect(x: 16, y: 48, width: 360, height: 24)
        view.addSubview(status)

        // Setup run twice (a filter changed): the first coordinator goes away.
        coordinator = makeCoordinator()
        coordinator = makeCoordinator()
        // The app's own delegate, set after: the coordinator notices and wraps it.
        collectionView.delegate = self
        showStatus()
    }

    private func makeCoordinator() -> PrefetchCoordinator<Int, String> {
        PrefetchCoordinator(fetcher: fetcher, collectionView: collectionView) { path in path.item }
    }

    private func showStatus() {
        status.text = "selected \(selected.map(String.init) ?? "none") · scrolls \(scrolls) · loads "
            + "\(fetcher.statistics.loadsStarted)"
    }

    func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int) -> Int { 5_000 }

    func collectionView(_ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath) -> UICollectionViewCell {
        let cell = collectionView.dequeueReusableCell(withReuseIdentifier: "item", for: indexPath)
        let show = { [weak cell] (text: String?) in
            var content = UIListContentConfiguration.cell()
            content.text = text ?? "…"
            (cell as? UICollectionViewListCell)?.contentConfiguration = content
        }
        show(fetcher.fetchedData(for: indexPath.item))
        coordinator?.requestDisplay(at: indexPath, for: cell) { result in show(try? result.get()) }
        return cell
    }

    func collectionView(_ collectionView: UICollectionView, didSelectItemAt indexPath: IndexPath) {
        selected = indexPath.item
        showStatus()
    }

    func scrollViewDidScroll(_ scrollView: UIScrollView) {
        scrolls += 1
        showStatus()
    }
}
#endif
