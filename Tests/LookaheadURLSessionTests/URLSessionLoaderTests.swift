#if Tools
import Foundation
import Logging
import Lookahead
import LookaheadServer
import LookaheadURLSession
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The URLSession loader against the feed server on loopback: statuses
/// mapped, a stall timed out, the size limit, cancellation the server sees,
/// and task priorities that follow the load's.
@Suite(.timeLimit(.minutes(1)))
struct URLSessionLoaderTests {
    static let logger = Logger(label: "lookahead.urlsession-tests") { _ in SwiftLogNoOpLogHandler() }

    /// Starts a feed server on a free loopback port, runs `body` with it and
    /// its base URL, then stops it (also when `body` throws).
    func withServer(_ body: (FeedServer, URL) async throws -> Void) async throws {
        let server = FeedServer(configuration: FeedServerConfiguration(itemCount: 100, seed: 1), logger: Self.logger)
        let url = try await server.start()
        do {
            try await body(server, url)
            await server.stop()
        } catch {
            await server.stop()
            throw error
        }
    }

    /// The error `body` throws, as a loader error.
    func loaderError(_ body: () async throws -> Data) async -> URLSessionLoaderError? {
        do {
            _ = try await body()
            Issue.record("expected an error")
            return nil
        } catch {
            guard let error = error as? URLSessionLoaderError else {
                Issue.record("expected a URLSessionLoaderError, got \(error)")
                return nil
            }
            return error
        }
    }

    /// Polls `condition` until it holds, failing after `timeout`.
    func waitUntil(_ message: String, timeout: Duration = .seconds(40), _ condition: () -> Bool) async throws {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while !condition() {
            guard clock.now < deadline else {
                Issue.record("timed out: \(message)")
                return
            }
            try await clock.sleep(for: .milliseconds(5))
        }
    }

    @Test func anItemLoads() async throws {
        try await withServer { _, base in
            let loader = URLSessionLoader()
            let data = try await loader.data(from: base.appending(path: "v0/item/7.json"), context: LoadContext())
            let item = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            #expect(item?["id"] as? Int == 7)
        }
    }

    @Test func aPagersPagesLoadThroughTheLoader() async throws {
        // Given a pager whose pages are slices of the server's story list, loaded with no context of their own
        struct Story: Identifiable, Sendable { let id: Int }
        try await withServer { _, base in
            let loader = URLSessionLoader()
            let pager = Pager<Story>(configuration: PagingConfiguration(pageSize: 20)) { request in
                let data = try await loader.data(from: base.appending(path: "v0/topstories.json"))
                let ids = try JSONDecoder().decode([Int].self, from: data)
                guard case .offset(let offset) = request.key else { return Page(items: []) }
                return Page(items: ids.dropFirst(offset).prefix(request.limit).map(Story.init))
            }

            // When it starts and the user reaches the end of what loaded
            pager.start()
            try await waitUntil("the first page") { pager.items.count >= 20 && pager.appendState != .loading }
            pager.accessed(index: pager.items.count - 1)

            // Then the pages arrive, in the server's order
            try await waitUntil("the second page") { pager.items.count >= 40 }
            let ids = try JSONDecoder().decode(
                [Int].self, from: try await loader.data(from: base.appending(path: "v0/topstories.json")))
            #expect(pager.items.map(\.id) == Array(ids.prefix(pager.items.count)))
        }
    }

    @Test func statusesAreTransientOrPermanent() async throws {
        try await withServer { server, base in
            let loader = URLSessionLoader()
            func url(_ path: String, fault: String? = nil) -> URL {
                let url = base.appending(path: path)
                return fault.map { url.appending(queryItems: [URLQueryItem(name: "fault", value: $0)]) } ?? url
            }
            // A 500: transient, no wait asked for.
            let serverError = await loaderError {
                try await loader.data(from: url("v0/item/1.json", fault: "500"), context: LoadContext())
            }
            #expect(serverError?.isTransient == true)
            #expect(serverError?.retryAfter == nil)
            guard case .status(500, _, _)? = serverError else {
                Issue.record("expected a 500, got \(String(describing: serverError))")
                return
            }
            // A 429 with Retry-After: transient, and the wait is kept.
            let tooMany = await loaderError {
                try await loader.data(from: url("v0/item/1.json", fault: "429"), context: LoadContext())
            }
            #expect(tooMany?.isTransient == true)
            #expect(tooMany?.retryAfter == .seconds(1))
            #expect(server.statistics.tooManyRequestsInjected == 1)
            // A 404: permanent.
            let notFound = await loaderError {
                try await loader.data(from: url("v0/nothing-here"), context: LoadContext())
            }
            #expect(notFound?.isTransient == false)
            guard case .status(404, _, _)? = notFound else {
                Issue.record("expected a 404, got \(String(describing: notFound))")
                return
            }
        }
    }

    @Test func aStallTimesOutAndTheServerSeesTheClientLeave() async throws {
        try await withServer { server, base in
            let loader = URLSessionLoader(configuration: .init(timeout: .seconds(1)))
            let stalled = base.appending(path: "v0/item/9.json").appending(queryItems: [
                .init(name: "fault", value: "stall")
            ])
            let failure = await loaderError { try await loader.data(from: stalled, context: LoadContext()) }
            guard case .timedOut? = failure else {
                Issue.record("expected a timeout, got \(String(describing: failure))")
                return
            }
            #expect(failure?.isTransient == true)
            try await waitUntil("the server counts the stalled request as ended by the client") {
                server.statistics.endedByClient == 1
            }
        }
    }

    @Test func aBodyOverTheLimitIsRefused() async throws {
        try await withServer { _, base in
            let loader = URLSessionLoader(configuration: .init(maximumResponseBytes: 100))
            let image = base.appending(path: "v0/image/3")
            let failure = await loaderError { try await loader.data(from: image, context: LoadContext()) }
            #expect(failure == .responseTooLarge(limit: 100, url: image))
            #expect(failure?.isTransient == false)
        }
    }

    @Test func cancellingTheLoadCancelsTheRequest() async throws {
        try await withServer { server, base in
            // Given a prefetch whose request the server holds
            let loader = URLSessionLoader()
            let fetcher = AsyncFetcher<Int, Data> { id, context in
                let url = base.appending(path: "v0/item/\(id).json")
                    .appending(queryItems: [.init(name: "fault", value: "stall")])
                return try await loader.data(from: url, context: context)
            }
            fetcher.fetchAsync(5)
            try await waitUntil("the server has the request") { server.statistics.inFlight == 1 }

            // When nobody wants it any more
            fetcher.cancelPrefetching(for: 5)

            // Then the server sees the client go
            try await waitUntil("the server counts the request as ended by the client") {
                server.statistics.endedByClient == 1
            }
            await fetcher.waitUntilIdle()
            #expect(fetcher.fetchedData(for: 5) == nil)
        }
    }

    @Test func theTaskFollowsTheLoadsPriority() async throws {
        try await withServer { server, base in
            // Given a display request at .high for a request the server holds
            let loader = URLSessionLoader()
            let seen = LockedValue<[(task: SendableBox, context: LoadContext)]>([])
            loader.taskObserver.withLock { observer in
                observer = { task, context in seen.withLock { $0.append((SendableBox(task), context)) } }
            }
            let fetcher = AsyncFetcher<Int, Data> { id, context in
                let url = base.appending(path: "v0/item/\(id).json")
                    .appending(queryItems: [.init(name: "fault", value: "stall")])
                return try await loader.data(from: url, context: context)
            }
            let request = fetcher.fetchAsync(8, priority: .high) { _ in }
            // The server holds it: cancelled later, it is the client the server sees leave.
            try await waitUntil("the server has the request") { server.statistics.inFlight == 1 }
            let (task, context) = seen.withLock { $0[0] }
            #expect(!context.isPrefetch)
            #expect(task.task.priority == URLSessionLoader.taskPriority(for: .high))

            // When a fling carries the cell away
            request.priority = .low

            // Then the task's priority follows
            #expect(task.task.priority == URLSessionLoader.taskPriority(for: .low))
            request.cancel()
            try await waitUntil("the server counts the request as ended by the client") {
                server.statistics.endedByClient == 1
            }
            await fetcher.waitUntilIdle()
        }
    }

    @Test func aPrefetchIsMarkedForLowDataMode() async throws {
        try await withServer { _, base in
            // Given a prefetch through the loader
            let loader = URLSessionLoader()
            let seen = LockedValue<[(task: SendableBox, context: LoadContext)]>([])
            loader.taskObserver.withLock { observer in
                observer = { task, context in seen.withLock { $0.append((SendableBox(task), context)) } }
            }
            let fetcher = AsyncFetcher<Int, Data> { id, context in
                try await loader.data(from: base.appending(path: "v0/item/\(id).json"), context: context)
            }
            fetcher.fetchAsync(4)
            await fetcher.waitUntilIdle()

            // Then the loader knew it was a prefetch and (on Apple platforms) kept it off a constrained network
            let (task, context) = try #require(seen.withLock { $0.first })
            #expect(context.isPrefetch)
            #if canImport(Darwin)
            #expect(task.task.originalRequest?.allowsConstrainedNetworkAccess == false)
            #else
            _ = task
            #endif
            #expect(fetcher.fetchedData(for: 4) != nil)
        }
    }
}

/// A task held by a test across threads (its methods are thread-safe).
struct SendableBox: @unchecked Sendable {
    let task: URLSessionTask
    init(_ task: URLSessionTask) { self.task = task }
}
#endif
