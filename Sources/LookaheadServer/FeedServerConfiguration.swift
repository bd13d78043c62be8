/// Where a ``FeedServer`` listens, what it serves and what faults it injects.
public struct FeedServerConfiguration: Sendable {
    /// The address to bind; loopback by default.
    public var host: String
    /// The port to bind; `0` lets the system pick a free one (see ``FeedServer/port``).
    public var port: Int
    /// The number of items: ids `1...itemCount`.
    public var itemCount: Int
    /// The seed of the data set (titles, authors, scores… derive from `(seed, id)`)
    /// and of the random latencies and faults.
    public var seed: UInt64
    /// The latency and faults added to answers.
    public var faults: FaultInjection

    /// Creates a configuration.
    public init(
        host: String = "127.0.0.1",
        port: Int = 0,
        itemCount: Int = 10_000,
        seed: UInt64 = 1,
        faults: FaultInjection = .none
    ) {
        self.host = host
        self.port = port
        self.itemCount = itemCount
        self.seed = seed
        self.faults = faults
    }

    /// Checks that the configuration makes sense.
    ///
    /// - Throws: ``FeedServerError/invalidConfiguration(_:)`` saying what is wrong.
    public func validate() throws(FeedServerError) {
        if host.isEmpty { throw .invalidConfiguration("host must not be empty") }
        if !(0...65_535).contains(port) { throw .invalidConfiguration("port must be in 0...65535, got \(port)") }
        if itemCount < 0 { throw .invalidConfiguration("itemCount must not be negative, got \(itemCount)") }
        try faults.validate()
    }
}
