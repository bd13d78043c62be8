// A grid of 5,000 photos from the feed server (LOOKAHEAD_FEED_URL, by default
// `lookahead serve` on 127.0.0.1:8080): each cell's image view shows its
// photo through the coordinator; the pipeline decodes for the cell's pixels.

#if canImport(UIKit)
import Lookahead
import LookaheadImages
import LookaheadUIKit
import LookaheadURLSession
import UIKit

/// A grid of photos that load ahead of the user.
public final class PhotosViewController: UICollectionViewController {
    private let loader = URLSessionLoader()
    private lazy var photos = ThumbnailPipeline<URL, UIImage>(
        diskCache: try! DiskCache(directory: NSTemporaryDirectory() + "photos"),
        size: ThumbnailSize(width: 120, height: 120, scale: 3)
    ) { [loader] url, context in Array(try await loader.data(from: url, context: context)) }
    private var coordinator: PrefetchCoordinator<URL, DecodedImage<UIImage>>!
    private let server = URL(string: ProcessInfo.processInfo.environment["LOOKAHEAD_FEED_URL"] ?? "http://127.0.0.1:8080")!

    public init() {
        let layout = UICollectionViewFlowLayout()
        layout.itemSize = CGSize(width: 120, height: 120)
        super.init(collectionViewLayout: layout)
    }

    required init?(coder: NSCoder) { nil }

    public override func viewDidLoad() {
        super.viewDidLoad()
        collectionView.register(PhotoCell.self, forCellWithReuseIdentifier: "photo")
        coordinator = PrefetchCoordinator(fetcher: photos.fetcher, collectionView: collectionView) { [unowned self] in
            url(of: $0.item)
        }
    }

    private func url(of item: Int) -> URL { server.appending(path: "v0/image/\(item)") }

    public override func collectionView(_ view: UICollectionView, numberOfItemsInSection section: Int) -> Int { 5_000 }

    public override func collectionView(_ view: UICollectionView, cellForItemAt path: IndexPath) -> UICollectionViewCell {
        let cell = view.dequeueReusableCell(withReuseIdentifier: "photo", for: path) as! PhotoCell
        cell.imageView.showImage(of: url(of: path.item), at: path, from: coordinator, placeholder: UIImage(systemName: "photo"))
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
