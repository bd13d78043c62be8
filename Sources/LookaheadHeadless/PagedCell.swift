/// A cell of a paged list: a loaded item, a placeholder for a position not
/// loaded yet, or a failure with a retry action.
///
/// ``PagedDataSource`` configures it from its snapshot in `cellForItemAt`,
/// and again, through a reload of the row, when the row's page lands or
/// fails. Subclass it to render the content (override
/// `configure(with:retry:)` and call `super`).

import Lookahead

@MainActor
open class PagedCell<Item: Sendable>: Cell {
    /// What a cell shows.
    public enum Content: Sendable {
        /// The row's position is not loaded yet.
        case placeholder
        /// The row's item.
        case item(Item)
        /// The row's page failed to load, for this reason; ``retry()`` asks
        /// for it again.
        case failed(String)
    }

    /// What the cell shows now; a placeholder until configured.
    public private(set) var content = Content.placeholder
    /// How many times the cell was configured.
    public private(set) var configurationCount = 0
    private var retryAction: (@MainActor () -> Void)?

    public required init(reuseIdentifier: String) {
        super.init(reuseIdentifier: reuseIdentifier)
    }

    /// The item shown, or `nil` for a placeholder or a failure.
    public var item: Item? {
        if case .item(let item) = content { return item }
        return nil
    }

    /// Whether the cell shows a placeholder.
    public var isPlaceholder: Bool {
        if case .placeholder = content { return true }
        return false
    }

    /// The failure shown, or `nil`.
    public var failure: String? {
        if case .failed(let message) = content { return message }
        return nil
    }

    /// Shows `content`; `retry` is what the cell's retry button does.
    open func configure(with content: Content, retry: (@MainActor () -> Void)? = nil) {
        self.content = content
        self.retryAction = retry
        configurationCount += 1
    }

    /// The retry button: loads the failed pages again. Does nothing unless
    /// the cell shows a failure.
    public func retry() {
        guard failure != nil else { return }
        retryAction?()
    }

    /// Clears what the previous row left behind.
    open override func prepareForReuse() {
        super.prepareForReuse()
        content = .placeholder
        retryAction = nil
    }
}
