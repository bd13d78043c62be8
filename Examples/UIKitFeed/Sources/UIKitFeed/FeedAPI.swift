// The example's stand-in for a feed API: pages of posts and each post's
// body, with a network's latency. Replace it with your client.

import Lookahead

/// One post of the feed.
public struct Post: Identifiable, Hashable, Sendable {
    public let id: Int
    public let title: String
}

/// A post's body: what the cells wait for.
public struct PostBody: Sendable {
    public let text: String
}

/// A fake feed of 10 000 posts, 200–600 ms away.
public struct FeedAPI: Sendable {
    public init() {}

    /// One page of posts.
    public func posts(_ request: PageRequest) async throws -> Page<Post> {
        guard case .offset(let offset) = request.key else { return Page(items: []) }
        try await Task.sleep(for: .milliseconds(400))
        let range = offset..<min(10_000, offset + request.limit)
        return Page(items: range.map { Post(id: $0, title: "Post \($0)") })
    }

    /// One post's body.
    public func body(of id: Post.ID) async throws -> PostBody {
        try await Task.sleep(for: .milliseconds(200 + id % 400))
        return PostBody(text: "The body of post \(id).")
    }
}
