// An image view that shows a cell's image through the coordinator: its
// request belongs to the view (reused for another key, the old one is
// withdrawn; the cell leaving lowers it), with a placeholder while it
// loads, an image for a failure, and a short fade when it arrives. Forwarding
// only. Compiled only where UIKit exists.

#if canImport(UIKit) && !os(watchOS)
public import Lookahead
import LookaheadUIKit
public import UIKit

extension UIImageView {
    /// Shows the image of `key`, the item at `indexPath`, through
    /// `coordinator`: at once if decoded already, else `placeholder` until it
    /// arrives (faded in), or `failure` if it cannot load. Call it from the
    /// cell's configuration; the request is the image view's, so a reused
    /// cell needs nothing in `prepareForReuse`.
    ///
    /// <!-- snippet: declarations -->
    /// ```swift
    /// @MainActor
    /// func configure(_ cell: PhotoCell, with url: URL, at indexPath: IndexPath) {
    ///     cell.imageView.showImage(of: url, at: indexPath, from: photos, placeholder: UIImage(systemName: "photo"))
    /// }
    /// ```
    public func showImage<Key>(
        of key: Key, at indexPath: IndexPath, from coordinator: PrefetchCoordinator<Key, DecodedImage<UIImage>>,
        placeholder: UIImage? = nil, failure: UIImage? = nil
    ) {
        coordinator.showImage(of: key, at: ItemPath(indexPath), in: self) { [weak self] (shown: ShownImage<UIImage>) in
            guard let self else { return }
            switch shown {
            case .image(let image, fades: true):
                UIView.transition(with: self, duration: 0.2, options: .transitionCrossDissolve) { self.image = image }
            case .image(let image, fades: false): self.image = image
            case .placeholder: self.image = placeholder
            case .failure: self.image = failure ?? placeholder
            }
        }
    }
}
#endif
