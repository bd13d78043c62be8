/// One page a paging source is asked for: where it starts, how many items,
/// and at which end of the loaded list it goes.
///
/// Offset sources get `.offset(offset)` and return up to `limit` items from
/// there; cursor sources get `.cursor(cursor)` — `nil` for the first page — and
/// return the cursors of the neighbouring pages in their ``Page``.
public struct PageRequest: Hashable, Sendable, CustomStringConvertible {
    /// Where a page starts.
    public enum Key: Hashable, Sendable {
        /// The position of the page's first item in the server's list.
        case offset(Int)
        /// The server's cursor for the page; `nil` asks for the first page.
        case cursor(String?)
    }

    /// Where the loaded page goes.
    public enum Direction: Hashable, Sendable {
        /// The first load (or a refresh): replaces whatever was loaded.
        case initial
        /// After the last loaded page.
        case append
        /// Before the first loaded page.
        case prepend
    }

    /// Where the page starts.
    public var key: Key
    /// The most items the page holds.
    public var limit: Int
    /// Where the loaded page goes.
    public var direction: Direction
    /// The refresh the request belongs to: the result of a request from an
    /// earlier generation is stale even when it asks for the same page.
    package var generation: Int

    /// Creates a request.
    public init(key: Key, limit: Int, direction: Direction = .append) {
        self.init(key: key, limit: limit, direction: direction, generation: 0)
    }

    package init(key: Key, limit: Int, direction: Direction, generation: Int) {
        precondition(limit >= 1, "PageRequest.limit must be at least 1, got \(limit)")
        self.key = key
        self.limit = limit
        self.direction = direction
        self.generation = generation
    }

    /// A request for `limit` items from `offset`.
    public static func offset(_ offset: Int, limit: Int, direction: Direction = .append) -> PageRequest {
        PageRequest(key: .offset(offset), limit: limit, direction: direction)
    }

    /// A request for the page at `cursor` (`nil`: the first page).
    public static func cursor(_ cursor: String?, limit: Int, direction: Direction = .append) -> PageRequest {
        PageRequest(key: .cursor(cursor), limit: limit, direction: direction)
    }

    public var description: String {
        let start: String
        switch key {
        case .offset(let offset): start = "offset \(offset)"
        case .cursor(let cursor): start = "cursor \(cursor ?? "nil")"
        }
        return "\(direction) \(start) limit \(limit)" + (generation == 0 ? "" : " gen \(generation)")
    }
}
