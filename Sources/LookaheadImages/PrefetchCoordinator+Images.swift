// What an image view shows of its request, decided here so the rule runs
// (and is tested) where UIKit does not: the image at once if decoded, else
// the placeholder until it arrives (then faded in), the failure image if it
// cannot load, and nothing for a request let go of because the view asked for
// another key. `UIImageView.showImage` forwards to it.

package import Lookahead

/// What an image view shows.
package enum ShownImage<Image> {
    /// The decoded image: at once (`fades` false) or as it arrives.
    case image(Image, fades: Bool)
    /// Nothing yet: the load is under way.
    case placeholder
    /// The load failed for good.
    case failure
}

extension PrefetchCoordinator {
    /// Shows the image of `key` (the item at `path`) in `view` through
    /// `show`, the view's request withdrawn when it asks for another key.
    @MainActor
    package func showImage<Image>(
        of key: Key, at path: ItemPath, in view: AnyObject,
        show: @escaping @MainActor (ShownImage<Image>) -> Void
    ) where Value == DecodedImage<Image> {
        if let cached = fetcher.fetchedData(for: key) {
            // Shown at once; what the view asked for before is let go of.
            cancelDisplayRequest(for: view)
            show(.image(cached.image, fades: false))
            return
        }
        show(.placeholder)
        requestDisplay(of: key, at: path, for: view) { result in
            switch result {
            case .success(let decoded): show(.image(decoded.image, fades: true))
            case .failure(let error) where !(error is CancellationError): show(.failure)
            case .failure: break
            }
        }
    }
}
