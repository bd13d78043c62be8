// What a SwiftUI row shows of its value: nothing yet, the value, or a
// failure the row can ask again after.

/// The state of a row's value: what `FetchedContent` hands its content.
@MainActor
public enum FetchPhase<Value: Sendable> {
    /// Not loaded yet: show a placeholder.
    case empty
    /// Loaded.
    case success(Value)
    /// The load failed for good (after its retries); `retry` asks again.
    case failure(any Error, retry: @MainActor () -> Void)

    /// The value, once loaded.
    public var value: Value? {
        if case .success(let value) = self { return value }
        return nil
    }
}
