/// Limits of an ``HTTPLoader``.
#if Tools
public struct HTTPLoaderConfiguration: Sendable, Hashable {
    /// The longest a request may take, from sending it to the last byte of
    /// the body (a deadline, not an idle timeout).
    public var timeout: Duration
    /// The largest body accepted; a larger one fails with
    /// ``HTTPLoaderError/responseTooLarge(limit:subject:)`` and is not read further.
    public var maximumResponseSize: Int
    /// The connection pool size per host. Set it to the fetcher's concurrency:
    /// fewer connections make loads queue inside the client, where the
    /// fetcher's priorities cannot reach them.
    public var maximumConnections: Int

    /// Creates a configuration.
    ///
    /// - Precondition: `timeout > 0`, `maximumResponseSize >= 0`, `maximumConnections >= 1`.
    public init(
        timeout: Duration = .seconds(10), maximumResponseSize: Int = 8 * 1_024 * 1_024, maximumConnections: Int = 6
    ) {
        precondition(timeout > .zero, "HTTPLoaderConfiguration.timeout must be positive, got \(timeout)")
        precondition(maximumResponseSize >= 0, "HTTPLoaderConfiguration.maximumResponseSize must not be negative")
        precondition(maximumConnections >= 1, "HTTPLoaderConfiguration.maximumConnections must be at least 1")
        self.timeout = timeout
        self.maximumResponseSize = maximumResponseSize
        self.maximumConnections = maximumConnections
    }
}
#endif
