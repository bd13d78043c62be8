/// A demo option that is out of range, with what was expected.
#if Tools
public struct DemoConfigurationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was wrong and what was expected.
    public var message: String

    /// Creates an error with its message.
    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
#endif
