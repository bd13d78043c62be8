public import DequeModule

/// What a paged list shows at one moment: its rows (loaded items and
/// placeholders), where they sit in the server's list, and the load states
/// of both ends — read from a ``Pager`` under one lock, so that the parts
/// agree with each other.
///
/// `PagedDataSource` keeps the snapshot the view was last told about and
/// answers the view from it; ``PagedListUpdate`` turns two snapshots into the
/// view updates between them.
///
/// **Rows.** `leadingPlaceholderCount` placeholders, then the loaded items,
/// then `trailingPlaceholderCount` placeholders, then — when the list has no
/// trailing placeholders and the last load failed — one footer row showing
/// the failure. Placeholders at an end whose load failed show that failure
/// too: they cannot load until the user retries.
public struct PagedListSnapshot<Item: Identifiable & Sendable>: Sendable {
    /// What one row of the list shows.
    public enum Row: Hashable {
        /// A loaded item.
        case item(Item.ID)
        /// A position the list knows exists but has not loaded.
        case placeholder
        /// A position (or the footer) whose page failed to load; the message
        /// says why. The UI shows it with a retry action.
        case failed(String)
    }

    /// The loaded items, in list order.
    public var items: Deque<Item>
    /// Placeholders before the loaded items.
    public var leadingPlaceholderCount: Int
    /// Placeholders after the loaded items.
    public var trailingPlaceholderCount: Int
    /// The position, in the server's list, of the list's row 0: rows keep
    /// their meaning across snapshots when their positions do.
    public var origin: Int
    /// The state of loading after the last loaded page.
    public var appendState: PagingLoadState
    /// The state of loading before the first loaded page.
    public var prependState: PagingLoadState
    /// The state of the first load or the last refresh.
    public var refreshState: PagingLoadState

    /// Creates a snapshot; ``Pager/snapshot`` makes them from a pager.
    public init(
        items: Deque<Item> = [],
        leadingPlaceholderCount: Int = 0,
        trailingPlaceholderCount: Int = 0,
        origin: Int = 0,
        appendState: PagingLoadState = .idle,
        prependState: PagingLoadState = .idle,
        refreshState: PagingLoadState = .idle
    ) {
        precondition(
            leadingPlaceholderCount >= 0 && trailingPlaceholderCount >= 0,
            "PagedListSnapshot: placeholder counts must not be negative, got \(leadingPlaceholderCount) and "
                + "\(trailingPlaceholderCount)")
        self.items = items
        self.leadingPlaceholderCount = leadingPlaceholderCount
        self.trailingPlaceholderCount = trailingPlaceholderCount
        self.origin = origin
        self.appendState = appendState
        self.prependState = prependState
        self.refreshState = refreshState
    }

    /// The failure the footer row shows: the append's, or the first load's
    /// while nothing is loaded; `nil` when there is no footer row, which is
    /// also the case while trailing placeholders show the failure instead.
    public var footerFailure: String? {
        guard trailingPlaceholderCount == 0 else { return nil }
        if case .failed(let message) = appendState { return message }
        if items.isEmpty, case .failed(let message) = refreshState { return message }
        return nil
    }

    /// The number of rows: placeholders, items and the footer.
    /// - Complexity: O(1)
    public var count: Int {
        leadingPlaceholderCount + items.count + trailingPlaceholderCount + (footerFailure == nil ? 0 : 1)
    }

    /// The range of rows holding loaded items.
    public var itemRows: Range<Int> { leadingPlaceholderCount..<(leadingPlaceholderCount + items.count) }

    /// The item shown at `row`, or `nil` for a placeholder, the footer, or a
    /// row out of range.
    /// - Complexity: O(1)
    public func item(at row: Int) -> Item? {
        itemRows.contains(row) ? items[row - leadingPlaceholderCount] : nil
    }

    /// What `row` shows.
    ///
    /// - Precondition: `0 <= row < count`.
    /// - Complexity: O(1)
    public func row(at row: Int) -> Row {
        precondition(row >= 0 && row < count, "PagedListSnapshot.row(at:): row \(row) is out of range (\(count) rows)")
        if row < leadingPlaceholderCount {
            if case .failed(let message) = prependState { return .failed(message) }
            return .placeholder
        }
        if let item = item(at: row) { return .item(item.id) }
        if row < itemRows.upperBound + trailingPlaceholderCount {
            if case .failed(let message) = appendState { return .failed(message) }
            return .placeholder
        }
        return .failed(footerFailure ?? "")
    }
}
