/// A story of the feed API, with Hacker News's field names.
#if Tools
public struct FeedItem: Codable, Sendable, Hashable, Identifiable {
    /// The item's id.
    public var id: Int
    /// The author's user name.
    public var by: String
    /// The story's title.
    public var title: String
    /// The story's score.
    public var score: Int
    /// When it was posted, in seconds since 1970.
    public var time: Int
    /// The story's link.
    public var url: String
    /// The number of comments.
    public var descendants: Int
    /// The kind of item: `story`.
    public var type: String

    /// Creates an item.
    public init(id: Int, by: String, title: String, score: Int, time: Int, url: String, descendants: Int, type: String)
    {
        self.id = id
        self.by = by
        self.title = title
        self.score = score
        self.time = time
        self.url = url
        self.descendants = descendants
        self.type = type
    }
}
#endif
