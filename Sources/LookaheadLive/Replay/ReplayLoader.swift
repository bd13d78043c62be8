#if Tools
import Foundation
import Logging
import Lookahead
import LookaheadHTTP
import LookaheadSimulation

/// Performs a real replay's loads: one GET per load through an
/// ``HTTPLoader``, asking the server for exactly the latency the simulator
/// draws for that item and attempt (`latency_ms=`), padding an item to the
/// simulator's payload size (`bytes=`), and forcing a `500` where the
/// simulator's network model fails the attempt (`fault=500`).
///
/// So the real run sees the simulated network, request for request, and any
/// difference from the simulator comes from the runtime: the fetcher's
/// workers, the HTTP client, the server, the loopback and the scheduler of
/// the machine. One thing cannot be matched: the server takes whole
/// milliseconds (each latency is rounded to the nearest one). What the rig
/// itself adds to every request — the loopback HTTP round trip and the
/// server's timer, about 2 ms here, which the simulated network's latency
/// already stands for — is
/// measured before the run (``calibrate(http:connections:elapsed:)``) and taken off each
/// latency asked for. A page
/// (`batch`, `paged`) is the server's page of ids padded to its items'
/// payload sizes (`bytes=`), as heavy as the simulator's.
///
/// Safe to call from any task: what it counts is behind a lock.
final class ReplayLoader: Sendable {
    /// A load that produced a value: its key, how long it took, when it
    /// ended, the bytes of its body.
    struct Completion: Sendable, Hashable {
        var key: Int
        var duration: Duration
        var end: Duration
        var bytes: Int
    }

    /// A page load that failed, run as the ``Pager`` runs it (`loadPage(_:)`).
    struct PageFailure: Sendable, Hashable {
        var key: Int
        var isTransient: Bool
    }

    struct State {
        /// Failed attempts per key: the attempt number of the next one.
        var failures: [Int: Int] = [:]
        /// Attempts of each key running now: a second one is a hedge.
        var running: [Int: Int] = [:]
        /// GETs sent (retries included).
        var requests = 0
        /// Response bodies received in full.
        var bytes = 0
        /// When each key's last successful load ended.
        var arrivals: [Int: Duration] = [:]
        /// Completions the replay has not collected yet.
        var completions: [Completion] = []
        /// Page failures the replay has not collected yet.
        var pageFailures: [PageFailure] = []
        /// Whether the replay has taken its counts (`finish()`): no GET is sent after.
        var isFinished = false

        /// Starts an attempt of `key` and returns its number, as the
        /// simulator draws it: the next after the failed ones, plus one when
        /// another attempt of the key runs (a hedge racing it draws its own
        /// latency).
        mutating func beginAttempt(of key: Int) -> Int {
            let racing = running[key, default: 0]
            running[key] = racing + 1
            return failures[key, default: 0] + min(racing, 1)
        }

        /// An attempt of `key` ended, however.
        mutating func endAttempt(of key: Int) {
            let left = running[key, default: 1] - 1
            running[key] = left > 0 ? left : nil
        }
    }

    let http: HTTPLoader
    let network: NetworkModel
    let keys: LoadKeys
    let elapsed: @Sendable () -> Duration
    let logger: Logger
    /// The rig's own time per request, taken off each latency asked for.
    let rigOverhead: Duration
    let state = LockedValue(State())

    /// The longest latency the server accepts (`latency_ms`).
    static let maximumLatency = Duration.seconds(600)

    init(
        http: HTTPLoader, network: NetworkModel, keys: LoadKeys, elapsed: @escaping @Sendable () -> Duration,
        rigOverhead: Duration = .zero, logger: Logger
    ) {
        self.http = http
        self.network = network
        self.keys = keys
        self.elapsed = elapsed
        self.rigOverhead = rigOverhead
        self.logger = logger
    }

    /// The rig's own time per request: the median, over a few requests for
    /// a tiny item with a 10 ms latency (after a few that open the
    /// connections), of how much longer than 10 ms each took — the HTTP round
    /// trip and the server's timer together. `.zero` if they fail.
    static func calibrate(
        http: HTTPLoader, connections: Int, elapsed: @Sendable () -> Duration
    ) async -> Duration {
        let latency = Duration.milliseconds(10)
        // Every connection the run will use opened first, as a warm app's are.
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<connections {
                group.addTask { _ = try? await http.data(path: "/v0/item/1.json", query: ["latency_ms": "10"]) }
            }
        }
        var overheads: [Duration] = []
        for sample in 0..<24 {
            let start = elapsed()
            let query = ["latency_ms": "\(Int64(latency / .milliseconds(1)))", "bytes": "64"]
            guard (try? await http.data(path: "/v0/item/1.json", query: query)) != nil else { return .zero }
            if sample >= 4 { overheads.append(max(.zero, elapsed() - start - latency)) }
        }
        overheads.sort()
        return overheads[overheads.count / 2]
    }

    /// Loads `key`: an item, or a page of ids.
    ///
    /// - Throws: ``HTTPLoaderError`` (transient ones are retried by the
    ///   fetcher), `CancellationError` when nobody wants the load any more or
    ///   the replay has finished (nothing is sent then), or
    ///   ``HTTPLoaderError/malformedBody(subject:reason:)`` when the server
    ///   answers for another item or page.
    func load(_ key: Int) async throws -> ReplayPayload {
        let items = keys.items(ofKey: key)
        guard let first = items.first else {
            throw HTTPLoaderError.invalidRequest("key \(key) covers no item of the \(keys.itemCount)")
        }
        let attempt = try state.withLock { state throws(CancellationError) in
            guard !state.isFinished else { throw CancellationError() }
            state.requests += 1
            return state.beginAttempt(of: key)
        }
        defer { state.withLock { $0.endAttempt(of: key) } }
        let latency = min(network.latency(forItem: first, attempt: attempt), Self.maximumLatency)
        let asked = max(.zero, latency - rigOverhead)
        var query = ["latency_ms": "\(Int64((asked / .milliseconds(1)).rounded()))"]
        if network.fails(item: first, attempt: attempt) { query["fault"] = "500" }
        let start = elapsed()
        do {
            let payload: ReplayPayload
            if keys.isPaged {
                payload = try await page(items, query: query)
            } else {
                payload = try await item(first, query: query)
            }
            let end = elapsed()
            state.withLock { state in
                state.bytes += payload.bytes
                state.arrivals[key] = end
                state.completions.append(Completion(key: key, duration: end - start, end: end, bytes: payload.bytes))
            }
            // What the runtime adds to the simulated network: the load's time beyond the latency asked for.
            logger.trace(
                "loaded",
                metadata: [
                    "key": "\(key)", "attempt": "\(attempt)", "latency": "\(latency)", "duration": "\(end - start)",
                    "start": "\(start)",
                ])
            return payload
        } catch {
            if !(error is CancellationError), !Task.isCancelled {
                state.withLock { $0.failures[key, default: 0] += 1 }
                logger.debug("load failed", metadata: ["key": "\(key)", "attempt": "\(attempt)", "error": "\(error)"])
            }
            throw error
        }
    }

    private func item(_ index: Int, query: [String: String]) async throws -> ReplayPayload {
        var query = query
        query["bytes"] = "\(network.payloadBytes(forItem: index))"
        let id = index + 1
        let path = "/v0/item/\(id).json"
        let body = try await http.data(path: path, query: query, item: "\(id)")
        let item: FeedItem
        do {
            item = try JSONDecoder().decode(FeedItem.self, from: body)
        } catch {
            throw HTTPLoaderError.malformedBody(
                subject: .init(url: path, item: "\(id)"), reason: "body is not an item: \(error)")
        }
        guard item.id == id else {
            throw HTTPLoaderError.malformedBody(
                subject: .init(url: path, item: "\(id)"), reason: "the server returned item \(item.id)")
        }
        return ReplayPayload(ids: [id], bytes: body.count)
    }

    private func page(_ items: Range<Int>, query: [String: String]) async throws -> ReplayPayload {
        var query = query
        query["offset"] = "\(items.lowerBound)"
        query["limit"] = "\(items.count)"
        // As heavy as the simulator's page: its items' bytes.
        query["bytes"] = "\(items.reduce(0) { $0 + network.payloadBytes(forItem: $1) })"
        let path = "/v0/topstories.json"
        let body = try await http.data(path: path, query: query)
        let page: FeedPage
        do {
            page = try JSONDecoder().decode(FeedPage.self, from: body)
        } catch {
            throw HTTPLoaderError.malformedBody(subject: .init(url: path), reason: "body is not a page: \(error)")
        }
        let expected = Array((items.lowerBound + 1)...items.upperBound)
        guard page.ids == expected else {
            throw HTTPLoaderError.malformedBody(
                subject: .init(url: path),
                reason: "asked for ids \(expected.first ?? 0)...\(expected.last ?? 0), got \(page.ids.count) ids")
        }
        return ReplayPayload(ids: page.ids, bytes: body.count)
    }

    /// Loads page `key` in a task of its own, outside any fetcher, as the
    /// runtime ``Pager`` does; a failure is kept for `takePageFailures()`,
    /// to be handed to the pager's machine (which decides on a retry).
    func loadPage(_ key: Int) -> Task<Void, Never> {
        Task { [self] in
            do {
                _ = try await load(key)
            } catch {
                guard !(error is CancellationError), !Task.isCancelled else { return }
                let failure = PageFailure(key: key, isTransient: HTTPLoader.isTransient(error))
                state.withLock { $0.pageFailures.append(failure) }
            }
        }
    }

    /// Takes the page failures gathered since the last call, oldest first.
    func takePageFailures() -> [PageFailure] {
        state.withLock { state in
            defer { state.pageFailures.removeAll(keepingCapacity: true) }
            return state.pageFailures
        }
    }

    /// Takes the completions gathered since the last call, oldest first.
    func takeCompletions() -> [Completion] {
        state.withLock { state in
            defer { state.completions.removeAll(keepingCapacity: true) }
            return state.completions
        }
    }

    /// When `key`'s last successful load ended, if one did.
    func arrival(ofKey key: Int) -> Duration? {
        state.withLock { $0.arrivals[key] }
    }

    /// Ends the replay's loading and returns the GETs sent and the bytes
    /// received: a load that starts later (a worker taking what was still
    /// queued when the trace ended, before the replay withdraws it) throws
    /// `CancellationError` without sending anything. Counting and closing
    /// are one step, so every GET the server sees is in these counts.
    func finish() -> (requests: Int, bytes: Int) {
        state.withLock { state in
            state.isFinished = true
            return (state.requests, state.bytes)
        }
    }
}
#endif
