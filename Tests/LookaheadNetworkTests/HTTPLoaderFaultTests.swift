#if Tools
import AsyncHTTPClient
import Foundation
import Lookahead
import LookaheadHTTP
import LookaheadServer
import Testing

@Suite("HTTP loader against injected faults", .timeLimit(.minutes(1)))
struct HTTPLoaderFaultTests {
    @Test("a forced 500 is a transient status error naming the item")
    func serverError() async throws {
        try await withFeedServer { server, loader in
            let failure = await error {
                try await loader.data(path: "/v0/item/42.json", query: ["fault": "500"], item: "42")
            }
            let loaderError = try #require(failure as? HTTPLoaderError)
            #expect(statusAndMessage(loaderError)?.0 == 500)
            #expect(loaderError.description.hasPrefix("status 500 for item 42"))
            #expect(HTTPLoader.isTransient(loaderError))
            #expect(server.statistics.serverErrorsInjected == 1)
        }
    }

    @Test("a truncated body is a transient truncation error")
    func truncatedBody() async throws {
        try await withFeedServer { server, loader in
            let failure = await error {
                try await loader.data(
                    path: "/v0/item/7.json", query: ["fault": "truncate", "bytes": "4000"], item: "7")
            }
            guard case .truncatedBody(let subject, _, _)? = failure as? HTTPLoaderError else {
                Issue.record("expected a truncated body, got \(String(describing: failure))")
                return
            }
            #expect(subject.item == "7")
            #expect(failure.map(HTTPLoader.isTransient) == true)
            #expect(server.statistics.truncationsInjected == 1)
            // The connection was closed; the next request gets a fresh one.
            let next = try await FeedClient(loader: loader).item(7)
            #expect(next.id == 7)
        }
    }

    @Test("a stall times out after the loader's timeout, and the server sees the client leave")
    func stallTimesOut() async throws {
        // Long enough that the request reaches the server's handler before the
        // client gives up, even under ThreadSanitizer on a busy machine.
        try await withFeedServer(loader: .init(timeout: .seconds(2))) { server, loader in
            let failure = await error {
                try await loader.data(path: "/v0/item/9.json", query: ["fault": "stall"], item: "9")
            }
            guard case .timedOut(let after, let subject)? = failure as? HTTPLoaderError else {
                Issue.record("expected a timeout, got \(String(describing: failure))")
                return
            }
            #expect(after == .seconds(2))
            #expect(subject.item == "9")
            #expect(failure.map(HTTPLoader.isTransient) == true)
            try await waitUntil("the server counts the stalled request as ended by the client") {
                server.statistics.endedByClient == 1
            }
            #expect(server.statistics.completed == 0)
        }
    }

    @Test("a malformed body is a permanent decoding error, never a wrong item")
    func malformedJSON() async throws {
        try await withFeedServer { _, loader in
            let failure = await error {
                try await loader.decode(
                    FeedItem.self, path: "/v0/item/5.json", query: ["fault": "malformed"], item: "5")
            }
            guard case .malformedBody(let subject, let reason)? = failure as? HTTPLoaderError else {
                Issue.record("expected a malformed body, got \(String(describing: failure))")
                return
            }
            #expect(subject.item == "5")
            #expect(reason.hasPrefix("body is not valid JSON"))
            #expect(failure.map(HTTPLoader.isTransient) == false)
        }
    }

    @Test("an oversized response is rejected with the size error")
    func oversizedResponse() async throws {
        let configuration = HTTPLoaderConfiguration(maximumResponseSize: 10_000)
        try await withFeedServer(loader: configuration) { _, loader in
            let failure = await error { try await FeedClient(loader: loader).item(4, paddedTo: 20_000) }
            guard case .responseTooLarge(let limit, let subject)? = failure as? HTTPLoaderError else {
                Issue.record("expected the size error, got \(String(describing: failure))")
                return
            }
            #expect(limit == 10_000 && subject.item == "4")
            #expect((failure as? HTTPLoaderError)?.description.contains("exceeds 10,000 bytes") == true)
            #expect(failure.map(HTTPLoader.isTransient) == false)
            // Exactly at the limit is fine.
            let atTheLimit = try await loader.data(path: "/v0/item/4.json", query: ["bytes": "10000"])
            #expect(atTheLimit.count == 10_000)
        }
    }

    @Test("a GET after a cancelled one succeeds (no stale pooled connection)")
    func requestAfterCancellation() async throws {
        try await withFeedServer(loader: .init(maximumConnections: 1)) { server, loader in
            let client = FeedClient(loader: loader)
            #expect(try await client.item(1).id == 1)
            let slow = Task { try await client.item(2, latency: .seconds(30)) }
            try await waitUntil("the slow request reaches the server") { server.statistics.inFlight == 1 }
            slow.cancel()
            #expect(await slow.result.isCancellation)
            try await waitUntil("the server sees the client leave") { server.statistics.endedByClient == 1 }
            for id in 3...6 {
                #expect(try await client.item(id, latency: .milliseconds(1)).id == id)
                #expect(try await client.item(id).id == id)
            }
        }
    }

    @Test("errors say which item and why")
    func descriptions() {
        let subject = HTTPLoaderError.Subject(url: "http://127.0.0.1:1/v0/item/42.json", item: "42")
        #expect(
            HTTPLoaderError.responseTooLarge(limit: 8_388_608, subject: subject).description
                == "response for item 42 exceeds 8,388,608 bytes")
        #expect(
            HTTPLoaderError.timedOut(after: .seconds(10), subject: subject).description
                == "item 42: timed out after 10 s")
        #expect(
            HTTPLoaderError.status(503, subject: .init(url: "http://h/x"), message: "").description
                == "status 503 for http://h/x")
        #expect(HTTPLoader.isTransient(HTTPClientError.remoteConnectionClosed))
        #expect(!HTTPLoader.isTransient(CancellationError()))
        #expect(!HTTPLoader.isTransient(HTTPLoaderError.status(404, subject: subject, message: "")))
        #expect(HTTPLoader.isTransient(HTTPLoaderError.status(502, subject: subject, message: "")))
    }
}

extension Result {
    var isCancellation: Bool {
        if case .failure(let error) = self { return error is CancellationError }
        return false
    }
}
#endif
