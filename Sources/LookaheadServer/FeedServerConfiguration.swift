#if Tools
import Foundation
import Lookahead

/// Where a ``FeedServer`` listens, what it serves and what faults it injects.
public struct FeedServerConfiguration: Sendable {
    /// The address to bind; loopback by default. An IPv6 address is written
    /// without brackets (`::1`); the server's URL brackets it.
    public var host = "127.0.0.1"
    /// The port to bind; `0` lets the system pick a free one (see ``FeedServer/port``).
    public var port = 0
    /// The number of items: ids `1...itemCount`, at most ``maximumItemCount``.
    public var itemCount: Int
    /// The seed of the data set (titles, authors, scores… derive from `(seed, id)`)
    /// and of the random latencies and faults.
    public var seed: UInt64
    /// The latency and faults added to answers.
    public var faults: FaultInjection
    /// The most requests that may wait out an injected latency (or stall) at
    /// once, `1...`\(``maximumWaitingRequestsLimit``).
    ///
    /// A request that would wait beyond it is answered at once with
    /// `503 Service Unavailable`, `Retry-After: 1` and a JSON body saying so,
    /// rather than queued: a queue would hold the connection and its memory
    /// just the same, and a 503 is what a loaded server answers (clients
    /// retry it as a transient failure).
    public var maximumWaitingRequests = 1_000

    /// The largest ``itemCount``: ids stay far from overflowing any arithmetic
    /// on them (an item's time is `base − 37·id`), and the unpaged id list
    /// stays under 8 MB.
    public static let maximumItemCount = 1_000_000

    /// The largest ``maximumWaitingRequests``.
    public static let maximumWaitingRequestsLimit = 100_000

    /// Creates a configuration of what is served: `itemCount` items drawn
    /// from `seed`, answered with `faults`. Where it listens (``host``,
    /// ``port``) and how many requests may wait (``maximumWaitingRequests``)
    /// start at their defaults: loopback, a free port, 1,000.
    public init(itemCount: Int = 10_000, seed: UInt64 = 1, faults: FaultInjection = .none) {
        self.itemCount = itemCount
        self.seed = seed
        self.faults = faults
    }

    /// Checks that the configuration makes sense.
    ///
    /// - Throws: ``FeedServerError/invalidConfiguration(_:)`` saying which
    ///   field is wrong, its value and the accepted range.
    public func validate() throws(FeedServerError) {
        if host.isEmpty { throw .invalidConfiguration("host must not be empty") }
        try checkRange("port", port, in: 0...65_535, else: FeedServerError.invalidConfiguration)
        try checkRange(
            "itemCount", itemCount, in: 0...Self.maximumItemCount, else: FeedServerError.invalidConfiguration)
        try checkRange(
            "maximumWaitingRequests", maximumWaitingRequests, in: 1...Self.maximumWaitingRequestsLimit,
            else: FeedServerError.invalidConfiguration)
        try faults.validate()
    }

    /// The server's base URL once bound to `port`, such as
    /// `http://127.0.0.1:8080` or `http://[::1]:8080`.
    ///
    /// - Throws: ``FeedServerError/invalidConfiguration(_:)`` if the host
    ///   cannot be part of a URL.
    func baseURL(port: Int) throws(FeedServerError) -> URL {
        let isIPv6 = host.contains(":") && !host.hasPrefix("[")
        guard let url = URL(string: "http://\(isIPv6 ? "[\(host)]" : host):\(port)"), url.host != nil else {
            throw .invalidConfiguration("host '\(host)' cannot be written in a URL")
        }
        return url
    }
}
#endif
