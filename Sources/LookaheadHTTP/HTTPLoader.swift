#if Tools
import AsyncHTTPClient
public import Foundation
public import Logging
import NIOCore
import NIOHTTP1

/// Loads resources over HTTP with a deadline, a size limit and real
/// cancellation, for ``AsyncFetcher`` loaders.
///
/// Built on AsyncHTTPClient, which honours Task cancellation: cancelling the
/// calling task (as `AsyncFetcher` does when nobody wants a load any more)
/// closes the request's connection, so the server sees the client go away.
///
/// The loader tries each request once, with one exception: when the server
/// closed a pooled keep-alive connection before answering (AsyncHTTPClient's
/// `remoteConnectionClosed`), it retries at once on a fresh connection, since
/// a GET is idempotent and nothing was received; the retry gets what is left
/// of the request's timeout, not a fresh one. Every other retry, with
/// backoff, is the fetcher's job: pass ``isTransient(_:)`` as its classifier.
public final class HTTPLoader: Sendable {
    /// The URL paths are resolved against.
    public let baseURL: URL
    /// The loader's limits.
    public let configuration: HTTPLoaderConfiguration
    private let client: HTTPClient
    private let logger: Logger
    private let sleep: @Sendable (Duration) async throws -> Void
    /// The time since the loader was created, on its clock.
    private let elapsed: @Sendable () -> Duration

    /// Creates a loader with its own HTTP client on the shared event loop group.
    ///
    /// - Parameters:
    ///   - baseURL: the scheme, host and port requests go to.
    ///   - configuration: timeout, size limit, connection pool size.
    ///   - logger: where requests and failures are logged (`debug`, `trace`).
    public convenience init(baseURL: URL, configuration: HTTPLoaderConfiguration = .init(), logger: Logger) {
        self.init(baseURL: baseURL, configuration: configuration, clock: ContinuousClock(), logger: logger)
    }

    /// Creates a loader whose timeouts are measured on `clock`.
    public init(baseURL: URL, configuration: HTTPLoaderConfiguration, clock: some Clock<Duration>, logger: Logger) {
        self.baseURL = baseURL
        self.configuration = configuration
        self.logger = logger
        sleep = { duration in try await clock.sleep(for: duration) }
        let origin = clock.now
        elapsed = { origin.duration(to: clock.now) }
        var clientConfiguration = HTTPClient.Configuration()
        clientConfiguration.connectionPool = .init(
            idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: configuration.maximumConnections)
        clientConfiguration.redirectConfiguration = .disallow
        clientConfiguration.httpVersion = .http1Only
        client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: clientConfiguration)
    }

    /// GETs `path` and returns its body.
    ///
    /// - Parameters:
    ///   - path: the path below `baseURL`, such as `/v0/item/42.json`.
    ///   - query: query parameters (sent sorted by name).
    ///   - item: the item the request is for, named in errors and logs.
    /// - Throws: ``HTTPLoaderError`` (status, size, timeout, connection), or
    ///   `CancellationError` when the calling task is cancelled.
    public func data(path: String, query: [String: String] = [:], item: String? = nil) async throws -> Data {
        let url = try makeURL(path: path, query: query)
        let subject = HTTPLoaderError.Subject(url: url, item: item)
        return try await retryingClosedConnection(subject) { remaining in
            try await self.withDeadline(subject, remaining: remaining) {
                try await self.get(url, subject: subject, remaining: remaining)
            }
        }
    }

    /// Runs `attempt` with the whole timeout and, if it fails with
    /// ``HTTPLoaderError/connectionClosed(subject:)``, once more with what is
    /// left of it: one deadline covers both attempts.
    ///
    /// - Throws: what `attempt` throws, or
    ///   ``HTTPLoaderError/timedOut(after:subject:)`` if nothing is left.
    func retryingClosedConnection(
        _ subject: HTTPLoaderError.Subject, attempt: (_ remaining: Duration) async throws -> Data
    ) async throws -> Data {
        let timeout = configuration.timeout
        let deadline = elapsed() + timeout
        do {
            return try await attempt(timeout)
        } catch HTTPLoaderError.connectionClosed {
            let remaining = deadline - elapsed()
            guard remaining > .zero else { throw HTTPLoaderError.timedOut(after: timeout, subject: subject) }
            logger.debug("stale pooled connection; retrying once", metadata: ["url": "\(subject.url)"])
            return try await attempt(remaining)
        }
    }

    /// GETs `path` and decodes its JSON body as `type`.
    ///
    /// - Throws: what ``data(path:query:item:)`` throws, or
    ///   ``HTTPLoaderError/malformedBody(subject:reason:)`` when the body is
    ///   not valid JSON of that shape.
    public func decode<T: Decodable>(
        _ type: T.Type, path: String, query: [String: String] = [:], item: String? = nil
    ) async throws -> T {
        let body = try await data(path: path, query: query, item: item)
        do {
            return try JSONDecoder().decode(type, from: body)
        } catch {
            let subject = HTTPLoaderError.Subject(url: (try? makeURL(path: path, query: query)) ?? path, item: item)
            throw HTTPLoaderError.malformedBody(subject: subject, reason: "body is not valid JSON: \(error)")
        }
    }

    /// Shuts the HTTP client down; requests after this fail.
    public func shutdown() async throws {
        try await client.shutdown()
    }

    /// Whether a load that failed with `error` is worth retrying: for
    /// `AsyncFetcher`'s and `Pager`'s classifiers.
    ///
    /// Timeouts, 5xx, truncated bodies, connection failures and
    /// AsyncHTTPClient's `remoteConnectionClosed` (GETs are idempotent) are;
    /// 4xx, malformed or oversized bodies and cancellation are not.
    public static func isTransient(_ error: any Error) -> Bool {
        switch error {
        case is CancellationError: false
        case let error as HTTPLoaderError: error.isTransient
        case is TransientHTTPLoaderError: true
        case let error as HTTPClientError:
            [.remoteConnectionClosed, .readTimeout, .deadlineExceeded, .connectTimeout].contains(error)
        default: false
        }
    }

    // MARK: Performing requests

    private func makeURL(path: String, query: [String: String]) throws(HTTPLoaderError) -> String {
        guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false) else {
            throw .invalidRequest("the base URL \(baseURL) cannot be parsed")
        }
        let basePath = components.path.hasSuffix("/") ? String(components.path.dropLast()) : components.path
        components.path = basePath + (path.hasPrefix("/") ? path : "/" + path)
        if !query.isEmpty {
            components.queryItems = query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
        }
        guard let url = components.string else {
            throw .invalidRequest("cannot make a URL of \(baseURL) with path '\(path)'")
        }
        return url
    }

    /// Runs `operation`, failing with `.timedOut` when `remaining` passes
    /// first; the operation is then cancelled (closing its connection).
    private func withDeadline(
        _ subject: HTTPLoaderError.Subject, remaining: Duration,
        _ operation: @escaping @Sendable () async throws -> Data
    ) async throws -> Data {
        let timeout = configuration.timeout
        do {
            return try await withThrowingTaskGroup(of: Data.self) { group in
                group.addTask(operation: operation)
                group.addTask { [sleep] in
                    try await sleep(remaining)
                    throw HTTPLoaderError.timedOut(after: timeout, subject: subject)
                }
                defer { group.cancelAll() }
                return try await group.next()!
            }
        } catch {
            if Task.isCancelled { throw CancellationError() }
            if let error = error as? HTTPLoaderError {
                logger.debug("request failed", metadata: ["url": "\(subject.url)", "error": "\(error)"])
            }
            throw error
        }
    }

    private func get(_ url: String, subject: HTTPLoaderError.Subject, remaining: Duration) async throws -> Data {
        var request = HTTPClientRequest(url: url)
        request.method = .GET
        logger.trace("GET", metadata: ["url": "\(url)"])
        let response: HTTPClientResponse
        do {
            // The deadline is a backstop: `withDeadline` also covers the body.
            let deadline = NIODeadline.now() + .nanoseconds(Int64(remaining / .nanoseconds(1)) + 1_000_000)
            response = try await client.execute(request, deadline: deadline, logger: logger)
        } catch {
            throw classify(error, subject: subject, received: nil)
        }

        let code = Int(response.status.code)
        guard (200...299).contains(code) else {
            var message = ""
            if let buffer = try? await response.body.collect(upTo: 4_096) {
                message = String(decoding: buffer.readableBytesView.prefix(300), as: UTF8.self)
            }
            throw HTTPLoaderError.status(code, subject: subject, message: message)
        }
        let limit = configuration.maximumResponseSize
        if let length = response.headers.first(name: "content-length").flatMap(Int.init), length > limit {
            throw HTTPLoaderError.responseTooLarge(limit: limit, subject: subject)
        }
        var body = Data()
        do {
            for try await buffer in response.body {
                guard body.count + buffer.readableBytes <= limit else {
                    throw HTTPLoaderError.responseTooLarge(limit: limit, subject: subject)
                }
                body.append(contentsOf: buffer.readableBytesView)
            }
        } catch let error as HTTPLoaderError {
            throw error
        } catch {
            throw classify(error, subject: subject, received: body.count)
        }
        logger.trace("GET done", metadata: ["url": "\(url)", "status": "\(code)", "bytes": "\(body.count)"])
        return body
    }

    /// Maps a client error to the loader's; `received` is the body bytes read
    /// so far, `nil` before the response head arrived.
    private func classify(_ error: any Error, subject: HTTPLoaderError.Subject, received: Int?) -> any Error {
        if error is CancellationError || Task.isCancelled { return CancellationError() }
        if let error = error as? HTTPClientError {
            switch error {
            case .cancelled: return CancellationError()
            case .deadlineExceeded, .readTimeout:
                return HTTPLoaderError.timedOut(after: configuration.timeout, subject: subject)
            case .remoteConnectionClosed where received == nil:
                return HTTPLoaderError.connectionClosed(subject: subject)
            default: break
            }
        }
        if let received {
            return HTTPLoaderError.truncatedBody(subject: subject, received: received, reason: "\(error)")
        }
        return HTTPLoaderError.transport(subject: subject, reason: "\(error)")
    }
}
#endif
