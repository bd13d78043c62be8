// A post's cell: it keeps the display request it made, and withdraws it on
// reuse (the coordinator also withdraws it when the cell leaves the screen).

#if canImport(UIKit) && !os(watchOS)
    import Lookahead
    import UIKit

    /// Shows a post's title and, once loaded, its body.
    final class PostCell: UICollectionViewListCell {
        /// The request for the body, while it waits.
        var request: FetchTask?
        /// The post the cell shows now.
        var representedID: Post.ID?

        override func prepareForReuse() {
            super.prepareForReuse()
            request?.cancel()
            request = nil
            representedID = nil
        }

        func show(title: String, body: PostBody?) {
            var content = defaultContentConfiguration()
            content.text = title
            content.secondaryText = body?.text ?? "…"
            contentConfiguration = content
        }
    }
#endif
