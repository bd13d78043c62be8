/// The terminal could not be taken over.
#if Tools
public struct DemoTerminalError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What failed.
    public var message: String

    /// Creates an error with its message.
    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
#endif
