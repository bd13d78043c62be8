/// The payload ``AsyncFetcher`` and ``Prefetcher`` register with the
/// scheduler: what each interest gets back when it ends.
/// What an interest registered through ``AsyncFetcher`` or ``Prefetcher``
/// gets back when it ends.
///
/// A class, not an enum: the scheduler stores `FetchPayload?` per interest, and
/// an optional reference is a plain pointer, where an optional multi-payload
/// enum is copied and tested through runtime witness calls on every access.
@usableFromInline
package final class FetchPayload<Value: Sendable>: Sendable {
    @usableFromInline
    enum Kind: Sendable {
        /// A `fetchAsync` display request: called exactly once.
        case completion(@Sendable (Result<Value, any Error>) -> Void)
        /// An `await value(for:)` caller.
        case continuation(token: UInt64, CheckedContinuation<Value, any Error>)
        /// A key prefetched by the prefetcher whose group has this index.
        case prefetch(group: Int)
    }

    @usableFromInline let kind: Kind
    /// Whether the interest waits on behalf of a prefetch elsewhere (a
    /// `DataPipeline` value load that prefetches): its load is then still
    /// a prefetch to the loader (``LoadContext/isPrefetch``).
    @usableFromInline let isOnBehalfOfPrefetch: Bool

    @inlinable
    init(_ kind: Kind, isOnBehalfOfPrefetch: Bool = false) {
        self.kind = kind
        self.isOnBehalfOfPrefetch = isOnBehalfOfPrefetch
    }
}
