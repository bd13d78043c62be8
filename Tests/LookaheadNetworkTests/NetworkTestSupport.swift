#if Tools
import Foundation
import Logging
import LookaheadHTTP
import LookaheadServer
import Testing

/// A logger that drops everything: the tests assert on counters, not logs.
let quietLogger = Logger(label: "lookahead.network-tests") { _ in SwiftLogNoOpLogHandler() }

/// Starts a feed server on a free loopback port, runs `body` with it and a
/// loader pointed at it, then shuts both down (also when `body` throws).
func withFeedServer<Result>(
    items: Int = 100,
    seed: UInt64 = 1,
    faults: FaultInjection = .none,
    loader loaderConfiguration: HTTPLoaderConfiguration = .init(timeout: .seconds(10)),
    _ body: (FeedServer, HTTPLoader) async throws -> Result
) async throws -> Result {
    let server = FeedServer(
        configuration: FeedServerConfiguration(itemCount: items, seed: seed, faults: faults), logger: quietLogger)
    let url = try await server.start()
    let loader = HTTPLoader(baseURL: url, configuration: loaderConfiguration, logger: quietLogger)
    do {
        let result = try await body(server, loader)
        try await loader.shutdown()
        await server.stop()
        return result
    } catch {
        try? await loader.shutdown()
        await server.stop()
        throw error
    }
}

/// Polls `condition` every few milliseconds until it holds, failing with
/// `message` if it still does not after `timeout`.
func waitUntil(
    _ message: @autoclosure () -> String,
    timeout: Duration = .seconds(40),
    sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: () -> Bool
) async throws {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while !condition() {
        guard clock.now < deadline else {
            Issue.record("timed out after \(timeout): \(message())", sourceLocation: sourceLocation)
            return
        }
        try await clock.sleep(for: .milliseconds(5))
    }
}

/// The error `body` throws, or `nil` (recorded as an issue) if it returns.
func error(
    from body: () async throws -> some Any, sourceLocation: SourceLocation = #_sourceLocation
) async -> (any Error)? {
    do {
        _ = try await body()
        Issue.record("expected an error", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error
    }
}

/// The status and message of an ``HTTPLoaderError/status(_:subject:message:)``.
func statusAndMessage(_ error: (any Error)?) -> (Int, String)? {
    guard case .status(let code, _, let message)? = error as? HTTPLoaderError else { return nil }
    return (code, message)
}
#endif
