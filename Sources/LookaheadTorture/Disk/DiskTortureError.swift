// Why a `lookahead torture disk` run could not start or carry on.

/// A disk torture run that could not start or carry on.
public enum DiskTortureError: Error, CustomStringConvertible {
    /// An argument out of range, with a message naming it.
    case invalid(String)
    /// The child process could not be started.
    case cannotSpawn(String)
    /// The cache could not be opened for checking.
    case cannotOpen(String)

    /// The message.
    public var description: String {
        switch self {
        case .invalid(let message), .cannotSpawn(let message), .cannotOpen(let message): message
        }
    }
}
