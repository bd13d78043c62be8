/// What happened to one attempt at a load, as an ``AsyncFetcher`` reports it
/// to its observers (``AsyncFetcher/observe(_:)``, ``AsyncFetcher/events(bufferingPolicy:)``).
///
/// A load retried after a transient failure reports each attempt. Durations
/// run from the loader being called to it returning, on `ContinuousClock`.
public enum FetchEvent<Key: Sendable>: Sendable {
    /// The loader was called for `key`.
    case started(Key)
    /// The loader returned a value.
    case succeeded(Key, duration: Duration)
    /// The loader threw (the load may still be retried).
    case failed(Key, error: any Error, duration: Duration)
    /// The load was cancelled, because nobody wanted the value any more, or
    /// because the other attempt of a hedged load delivered first.
    case cancelled(Key, duration: Duration)
    /// A second attempt of `key`'s display load started, because the first
    /// had run past the hedging threshold (``FetchHedging``); its own
    /// `started` follows.
    case hedgeStarted(Key)
    /// The second attempt of `key`'s load delivered first; the first is
    /// cancelled.
    case hedgeWon(Key)

    /// The key the event is about.
    public var key: Key {
        switch self {
        case .started(let key), .succeeded(let key, _), .failed(let key, _, _), .cancelled(let key, _),
            .hedgeStarted(let key), .hedgeWon(let key):
            key
        }
    }

    /// How long the attempt took, for the events that end one.
    public var duration: Duration? {
        switch self {
        case .started, .hedgeStarted, .hedgeWon: nil
        case .succeeded(_, let duration), .failed(_, _, let duration), .cancelled(_, let duration): duration
        }
    }
}

/// Keeps an observer of a fetcher registered: the observation ends when
/// ``cancel()`` is called or the object is released.
public final class FetchObservation: Sendable {
    private let end: LockedValue<(@Sendable () -> Void)?>

    init(end: @escaping @Sendable () -> Void) {
        self.end = LockedValue(end)
    }

    deinit {
        cancel()
    }

    /// Ends the observation. An event already being delivered on another
    /// thread may still arrive; no later one does.
    public func cancel() {
        let end = self.end.withLock { end in
            defer { end = nil }
            return end
        }
        end?()
    }
}
