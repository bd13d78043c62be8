#if Tools
public import Foundation
public import Lookahead

/// The feed API (`lookahead serve`'s routes) over an ``HTTPLoader``.
///
/// Every call is one GET, tried once (see ``HTTPLoader``); retries belong to
/// the fetcher or pager that drives the client.
public struct FeedClient: Sendable {
    /// The loader requests go through.
    public let loader: HTTPLoader

    /// Creates a client.
    public init(loader: HTTPLoader) {
        self.loader = loader
    }

    /// All the ids of the feed, in order.
    public func topStories() async throws -> [Int] {
        try await loader.decode([Int].self, path: "/v0/topstories.json")
    }

    /// The ids at positions `offset ..< offset + limit`, and the feed's length.
    ///
    /// - Precondition: the server accepts `offset >= 0` and `1 <= limit <= 500`;
    ///   others fail with status 400.
    public func topStories(offset: Int, limit: Int) async throws -> FeedPage {
        let page = try await loader.decode(
            FeedPage.self, path: "/v0/topstories.json", query: ["offset": "\(offset)", "limit": "\(limit)"])
        guard page.offset == offset, page.ids.count <= limit else {
            throw HTTPLoaderError.malformedBody(
                subject: .init(url: "/v0/topstories.json"),
                reason: "asked for \(limit) ids from \(offset), got \(page.ids.count) from \(page.offset)")
        }
        return page
    }

    /// The item `id`.
    ///
    /// - Parameters:
    ///   - bytes: pads the response body to about this many bytes (server `bytes=`).
    ///   - latency: asks the server to wait exactly this long before answering
    ///     (server `latency_ms=`).
    /// - Throws: ``HTTPLoaderError``; a body for another item is
    ///   ``HTTPLoaderError/malformedBody(subject:reason:)``.
    public func item(_ id: Int, paddedTo bytes: Int? = nil, latency: Duration? = nil) async throws -> FeedItem {
        var query: [String: String] = [:]
        if let bytes { query["bytes"] = "\(bytes)" }
        if let latency { query["latency_ms"] = "\(Int64((latency / .milliseconds(1)).rounded()))" }
        let path = "/v0/item/\(id).json"
        let item = try await loader.decode(FeedItem.self, path: path, query: query, item: "\(id)")
        guard item.id == id else {
            throw HTTPLoaderError.malformedBody(
                subject: .init(url: path, item: "\(id)"), reason: "the server returned item \(item.id)")
        }
        return item
    }

    /// The PNG thumbnail of item `id`, `size × size` pixels.
    ///
    /// - Throws: ``HTTPLoaderError``; a body that is not a PNG is
    ///   ``HTTPLoaderError/malformedBody(subject:reason:)``.
    public func image(_ id: Int, size: Int) async throws -> Data {
        let path = "/v0/image/\(id)"
        let data = try await loader.data(path: path, query: ["size": "\(size)"], item: "\(id)")
        guard data.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else {
            throw HTTPLoaderError.malformedBody(subject: .init(url: path, item: "\(id)"), reason: "body is not a PNG")
        }
        return data
    }

    /// A `Pager` loader over the offset variant of `topstories`: fetches the
    /// page's ids, then its items concurrently (as many at once as the
    /// loader's connections), and reports the feed's length.
    ///
    /// Transient failures are thrown as ``TransientHTTPLoaderError`` so that
    /// the pager retries them; others fail the page. Cursor requests fail
    /// with ``HTTPLoaderError/invalidRequest(_:)``: the feed pages by offset.
    public var pageLoader: @Sendable (PageRequest) async throws -> Page<FeedItem> {
        { request in
            guard case .offset(let offset) = request.key else {
                throw HTTPLoaderError.invalidRequest("the feed pages by offset, not by cursor (\(request))")
            }
            do {
                let page = try await topStories(offset: offset, limit: min(request.limit, 500))
                let items = try await items(page.ids)
                return Page(items: items, totalCount: page.total)
            } catch let error as HTTPLoaderError where error.isTransient {
                throw TransientHTTPLoaderError(error)
            }
        }
    }

    /// The items of `ids`, in order, at most `maximumConnections` requests at a time.
    private func items(_ ids: [Int]) async throws -> [FeedItem] {
        try await withThrowingTaskGroup(of: (Int, FeedItem).self) { group in
            var results = [FeedItem?](repeating: nil, count: ids.count)
            var next = 0
            func addNext() {
                guard next < ids.count else { return }
                let index = next
                next += 1
                group.addTask { (index, try await item(ids[index])) }
            }
            for _ in 0..<loader.configuration.maximumConnections { addNext() }
            while let (index, item) = try await group.next() {
                results[index] = item
                addNext()
            }
            return results.map { $0! }
        }
    }
}
#endif
