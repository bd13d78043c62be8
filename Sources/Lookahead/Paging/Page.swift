/// What a paging source returns for one ``PageRequest``.
public struct Page<Item: Sendable>: Sendable {
    /// The page's items, in list order. Fewer than the request's limit means
    /// the end of the list for an offset source.
    public var items: [Item]
    /// The cursor of the page after this one; `nil` at the end of the list.
    /// Ignored by offset paging.
    public var nextCursor: String?
    /// The cursor of the page before this one; `nil` at the start of the list.
    /// Ignored by offset paging.
    public var previousCursor: String?
    /// The length of the whole list, when the server knows it: the list then
    /// shows placeholders for the positions not loaded yet.
    public var totalCount: Int?

    /// Creates a page.
    public init(items: [Item], nextCursor: String? = nil, previousCursor: String? = nil, totalCount: Int? = nil) {
        self.items = items
        self.nextCursor = nextCursor
        self.previousCursor = previousCursor
        self.totalCount = totalCount
    }
}
