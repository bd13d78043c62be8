/// Why a CSV scroll trace could not be read, and where.
public struct TraceParseError: Error, CustomStringConvertible, Equatable {
    /// The offending line, counted from 1; for a trace without samples, the
    /// last line (0 for an empty text).
    public var line: Int
    /// What is wrong with it.
    public var reason: String

    /// For example `trace line 7: expected two comma-separated numbers, got 'abc'`.
    public var description: String { "trace line \(line): \(reason)" }
}
