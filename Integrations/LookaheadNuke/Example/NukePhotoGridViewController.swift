// The Nuke photo grid: Lookahead decides what to load and when, Nuke loads,
// decodes and caches — one cache and one download per image, Nuke's. The
// same screen as Nuke's own ImagePrefetcher example, a cell reading Nuke's
// cache at once and asking the coordinator for the rest.

#if canImport(UIKit)
import Foundation
import Lookahead
import LookaheadUIKit
import Nuke
import UIKit

/// A grid of photos from `urls`.
public final class NukePhotoGridViewController: UICollectionViewController {
    private let pipeline = ImagePipeline.shared
    private let urls: [URL]
    private var coordinator: PrefetchCoordinator<URL, ImageContainer>!

    public init(urls: [URL]) {
        self.urls = urls
        let layout = UICollectionViewFlowLayout()
        layout.itemSize = CGSize(width: 120, height: 120)
        super.init(collectionViewLayout: layout)
    }

    required init?(coder: NSCoder) { nil }

    public override func viewDidLoad() {
        super.viewDidLoad()
        collectionView.register(PhotoCell.self, forCellWithReuseIdentifier: "photo")
        coordinator = PrefetchCoordinator(fetcher: NukeFetching.fetcher(pipeline: pipeline), collectionView: collectionView) {
            [urls] path in urls.indices.contains(path.item) ? urls[path.item] : nil
        }
    }

    public override func collectionView(_ view: UICollectionView, numberOfItemsInSection section: Int) -> Int { urls.count }

    public override func collectionView(_ view: UICollectionView, cellForItemAt path: IndexPath) -> UICollectionViewCell {
        let cell = view.dequeueReusableCell(withReuseIdentifier: "photo", for: path) as! PhotoCell
        cell.imageView.image = pipeline.cache[urls[path.item]]?.image
        coordinator.requestDisplay(of: urls[path.item], at: path, for: cell) { [weak cell] result in
            if case .success(let container) = result { cell?.imageView.image = container.image }
        }
        return cell
    }
}

final class PhotoCell: UICollectionViewCell {
    let imageView = UIImageView()

    override init(frame: CGRect) {
        super.init(frame: frame)
        imageView.frame = contentView.bounds
        imageView.autoresizingMask = [.flexibleWidth, .flexibleHeight]
        imageView.contentMode = .scaleAspectFill
        imageView.clipsToBounds = true
        contentView.addSubview(imageView)
    }

    required init?(coder: NSCoder) { nil }
}
#endif
