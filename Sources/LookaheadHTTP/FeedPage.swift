/// One page of the feed's ids: `GET /v0/topstories.json?offset=O&limit=L`.
#if Tools
public struct FeedPage: Codable, Sendable, Hashable {
    /// The ids of positions `offset ..< offset + ids.count`.
    public var ids: [Int]
    /// The position of the first id.
    public var offset: Int
    /// The most ids asked for.
    public var limit: Int
    /// The length of the whole list.
    public var total: Int

    /// Creates a page.
    public init(ids: [Int], offset: Int, limit: Int, total: Int) {
        self.ids = ids
        self.offset = offset
        self.limit = limit
        self.total = total
    }
}
#endif
