/// A simulation setting out of range: which one, its value and what is accepted.
public struct SimulationConfigurationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was wrong and what is accepted, naming the setting.
    public var message: String

    /// Creates an error with its message.
    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
