import Foundation

/// A value only ever read or written with its lock held.
///
/// The server target does not depend on the `Lookahead` core (whose
/// `LockedValue` this mirrors), so it keeps its own over `NSLock`, which
/// ThreadSanitizer understands (unlike `Synchronization.Mutex` on Linux).
final class LockedValue<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` on the value with the lock held.
    func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
