/// What a ``FeedServer`` has done since it started or its statistics were reset.
#if Tools
public struct FeedServerStatistics: Sendable, Hashable {
    /// Requests that reached a route.
    public var requests = 0
    /// Requests whose response was written in full.
    public var completed = 0
    /// Requests the client abandoned (closed the connection) before their
    /// response was finished; the server stopped working on them.
    public var endedByClient = 0
    /// Requests being handled now: from their arrival until the server starts
    /// writing their last bytes (so a client that starts its next request as
    /// soon as a response arrives never sees it overlap with the previous one).
    public var inFlight = 0
    /// The largest `inFlight` seen.
    public var maxInFlight = 0
    /// Faults injected, of every kind.
    public var faultsInjected = 0
    /// `500` responses injected.
    public var serverErrorsInjected = 0
    /// Truncated bodies injected.
    public var truncationsInjected = 0
    /// Stalls injected.
    public var stallsInjected = 0
    /// Malformed JSON bodies injected.
    public var malformedInjected = 0
    /// `429 Too Many Requests` injected (forced with `fault=429`).
    public var tooManyRequestsInjected = 0
    /// Requests answered `503` because
    /// ``FeedServerConfiguration/maximumWaitingRequests`` were already waiting.
    public var waitsRefused = 0

    /// Empty statistics.
    public init() {}
}
#endif
