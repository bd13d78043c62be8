// A post's cell: its title and body. It holds no request: the display
// request it asks for belongs to it in the coordinator, which withdraws it
// when the cell is reused.

#if canImport(UIKit) && !os(watchOS)
    import UIKit

    /// Shows a post's title and, once loaded, its body.
    final class PostCell: UICollectionViewListCell {
        func show(title: String, body: PostBody?) {
            var content = defaultContentConfiguration()
            content.text = title
            content.secondaryText = body?.text ?? "…"
            contentConfiguration = content
        }
    }
#endif
