/// The feed answered something the demo cannot show.
#if Tools
public struct DemoFeedError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was wrong.
    public var message: String

    /// Creates an error with its message.
    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
#endif
