#if Tools
import AsyncHTTPClient
import Foundation
import LookaheadHTTP
import LookaheadServer
import NIOCore
import NIOHTTP1
import Testing

@Suite("Feed server routes", .timeLimit(.minutes(1)))
struct FeedServerRouteTests {
    @Test("topstories lists ids 1...N in order")
    func topStoriesListsAllIDs() async throws {
        try await withFeedServer(items: 250) { _, loader in
            let ids = try await FeedClient(loader: loader).topStories()
            #expect(ids == Array(1...250))
        }
    }

    @Test("topstories pages by offset and limit, with the total")
    func topStoriesPages() async throws {
        try await withFeedServer(items: 95) { _, loader in
            let client = FeedClient(loader: loader)
            let first = try await client.topStories(offset: 0, limit: 10)
            let last = try await client.topStories(offset: 90, limit: 10)
            let pastTheEnd = try await client.topStories(offset: 95, limit: 10)
            let farPastTheEnd = try await client.topStories(offset: 500, limit: 500)
            #expect(first == FeedPage(ids: Array(1...10), offset: 0, limit: 10, total: 95))
            #expect(last == FeedPage(ids: Array(91...95), offset: 90, limit: 10, total: 95))
            #expect(pastTheEnd.ids == [] && pastTheEnd.total == 95)
            #expect(farPastTheEnd.ids == [] && farPastTheEnd.total == 95)
        }
    }

    @Test(
        "bad topstories parameters get 400 naming the parameter",
        arguments: [
            (["offset": "0", "limit": "0"], "limit"), (["offset": "0", "limit": "501"], "limit"),
            (["offset": "-1", "limit": "5"], "offset"), (["offset": "abc", "limit": "5"], "offset"),
            (["offset": "3"], "limit"), (["bytes": "5000"], "bytes"),
        ])
    func badPagingParameters(query: [String: String], parameter: String) async throws {
        try await withFeedServer { _, loader in
            let failure = await error { try await loader.data(path: "/v0/topstories.json", query: query) }
            let (code, message) = try #require(statusAndMessage(failure))
            #expect(code == 400)
            #expect(message.contains("'\(parameter)'"), "\(message)")
            #expect(HTTPLoader.isTransient(try #require(failure)) == false)
        }
    }

    @Test("an item decodes as FeedItem and is the same for the same seed")
    func itemsAreSeeded() async throws {
        let first = try await withFeedServer(seed: 7) { _, loader in
            let raw = try await loader.data(path: "/v0/item/42.json")
            let object = try #require(try JSONSerialization.jsonObject(with: raw) as? [String: Any])
            #expect(Set(object.keys) == ["id", "by", "title", "score", "time", "url", "descendants", "type"])
            return try await FeedClient(loader: loader).item(42)
        }
        let again = try await withFeedServer(seed: 7) { _, loader in try await FeedClient(loader: loader).item(42) }
        let otherSeed = try await withFeedServer(seed: 8) { _, loader in try await FeedClient(loader: loader).item(42) }
        #expect(first.id == 42)
        #expect(first.type == "story")
        #expect(!first.title.isEmpty && !first.by.isEmpty && first.url.hasSuffix("/42"))
        #expect(first == again)
        #expect(first != otherSeed)
    }

    @Test("bytes= pads an item's body to exactly that size; above 1 MiB is a 400")
    func paddedItems() async throws {
        try await withFeedServer { _, loader in
            let padded = try await loader.data(path: "/v0/item/3.json", query: ["bytes": "5000"])
            #expect(padded.count == 5_000)
            let item = try JSONDecoder().decode(FeedItem.self, from: padded)
            #expect(item.id == 3)
            let failure = await error { try await loader.data(path: "/v0/item/3.json", query: ["bytes": "1048577"]) }
            #expect(statusAndMessage(failure)?.0 == 400)
            #expect(statusAndMessage(failure)?.1.contains("'bytes'") == true)
        }
    }

    @Test("bytes= pads a page of ids to exactly that size, as heavy as its items")
    func paddedPages() async throws {
        try await withFeedServer(items: 95) { _, loader in
            let padded = try await loader.data(
                path: "/v0/topstories.json", query: ["offset": "7", "limit": "8", "bytes": "16000"])
            #expect(padded.count == 16_000)
            let page = try JSONDecoder().decode(FeedPage.self, from: padded)
            #expect(page == FeedPage(ids: Array(8...15), offset: 7, limit: 8, total: 95))
            // Below the page's own size, nothing is added
            let plain = try await loader.data(path: "/v0/topstories.json", query: ["offset": "7", "limit": "8"])
            let small = try await loader.data(
                path: "/v0/topstories.json", query: ["offset": "7", "limit": "8", "bytes": "10"])
            #expect(small == plain)
        }
    }

    @Test(
        "unknown ids and routes get 404 with a JSON message",
        arguments: ["/v0/item/0.json", "/v0/item/101.json", "/v0/image/101", "/v0/nothing"])
    func notFound(path: String) async throws {
        try await withFeedServer(items: 100) { _, loader in
            let failure = await error { try await loader.data(path: path) }
            let (code, message) = try #require(statusAndMessage(failure))
            #expect(code == 404)
            let body = try JSONSerialization.jsonObject(with: Data(message.utf8)) as? [String: String]
            #expect(body?["error"]?.isEmpty == false, "\(message)")
        }
    }

    @Test(
        "bad id, size, latency_ms and fault parameters get 400",
        arguments: [
            ("/v0/item/abc.json", [:], "id"), ("/v0/image/3", ["size": "0"], "size"),
            ("/v0/image/3", ["size": "513"], "size"), ("/v0/item/3.json", ["latency_ms": "-5"], "latency_ms"),
            ("/v0/item/3.json", ["fault": "explode"], "fault"),
        ])
    func badParameters(path: String, query: [String: String], parameter: String) async throws {
        try await withFeedServer { _, loader in
            let failure = await error { try await loader.data(path: path, query: query) }
            let (code, message) = try #require(statusAndMessage(failure))
            #expect(code == 400)
            #expect(message.contains(parameter), "\(message)")
        }
    }

    @Test("request bodies get 413 and huge URIs 414")
    func requestLimits() async throws {
        try await withFeedServer { server, _ in
            let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup)
            defer { _ = client.shutdown() }
            let base = "http://127.0.0.1:\(try #require(server.port))"
            var withBody = HTTPClientRequest(url: base + "/v0/item/1.json")
            withBody.body = .bytes(ByteBuffer(string: "hello"))
            let bodyResponse = try await client.execute(withBody, timeout: .seconds(10))
            #expect(bodyResponse.status.code == 413)
            let longURI = HTTPClientRequest(url: base + "/v0/item/1.json?pad=" + String(repeating: "x", count: 5_000))
            let uriResponse = try await client.execute(longURI, timeout: .seconds(10))
            #expect(uriResponse.status.code == 414)
        }
    }
}
#endif
