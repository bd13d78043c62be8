import Lookahead

/// The demo's cell: the sample's cell (white until its data lands, then red)
/// that also owns the request it made for its item, and withdraws it when it
/// is reused for another one.
@MainActor
final class DemoGridCell: ContentCell<DemoItem> {
    /// The display request for the item the cell shows, if its data was missing.
    var loadTask: Task<Void, Never>?

    override func prepareForReuse() {
        super.prepareForReuse()
        loadTask?.cancel()
        loadTask = nil
    }
}
