/// Why a ``FeedServer`` could not start.
#if Tools
public enum FeedServerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The configuration is inconsistent; the message says which field and why.
    case invalidConfiguration(String)
    /// `start()` was called twice, or after `stop()`.
    case alreadyStarted
    /// The server could not bind or stopped before it was listening.
    case couldNotStart(String)

    public var description: String {
        switch self {
        case .invalidConfiguration(let message): "invalid feed server configuration: \(message)"
        case .alreadyStarted: "the feed server was already started; a stopped server cannot be restarted"
        case .couldNotStart(let message): "the feed server could not start: \(message)"
        }
    }
}
#endif
