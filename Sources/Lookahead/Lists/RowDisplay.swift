// The display request of one row of a SwiftUI list, from its appearing to its
// disappearing: the same requests UIKit cells make, through a fetcher or a
// coordinator, lowered or withdrawn when the row goes. Portable and tested
// here; LookaheadSwiftUI's FetchedContent only forwards to it.

/// What a row does with its display request when it disappears.
///
/// As Nuke's `LazyImage` offers (`onDisappear(.lowerPriority)` / `.cancel`).
public enum DisappearBehavior: Sendable, Hashable {
    /// The request is withdrawn: its load stops unless something else wants it.
    case cancel
    /// The request stays, at `.low` (or as the coordinator ranks a cell that
    /// left): a row scrolled back into view gets its value without a new load.
    case lowerPriority
}

/// The display request of one row: made when it appears (unless its value is
/// cached), raised again if it reappears, lowered or withdrawn when it goes.
@MainActor
package final class RowDisplay<Key: Hashable & Sendable, Value: Sendable> {
    /// Where a row's request goes.
    package enum Source {
        /// Straight to a fetcher, at a fixed priority.
        case fetcher(AsyncFetcher<Key, Value>, priority: FetchPriority)
        /// Through a coordinator that drives the list: at the planner's
        /// priority, re-ranked each frame like a UIKit cell's. Without a
        /// `path`, the row is where the coordinator's rows have its key
        /// (a coordinator made for SwiftUI), and its appearing and
        /// disappearing tell the coordinator where the list is.
        case coordinator(PrefetchCoordinator<Key, Value>, path: ItemPath?)
    }

    private let onDisappear: DisappearBehavior
    private var request: FetchTask?
    private var key: Key?
    /// Bumped by every new request, so that a late completion of an older
    /// one (for another key) is ignored.
    private var generation = 0

    package init(onDisappear: DisappearBehavior) {
        self.onDisappear = onDisappear
    }

    /// The row showing `key` appeared at `time`: returns its cached value at
    /// once, or asks for it (raising a request lowered when the row left)
    /// and hands it to `deliver` on the main actor when it arrives, or its
    /// failure (not a withdrawal) to `failed`.
    package func appeared(
        key: Key, from source: Source, at time: Duration = .zero, deliver: @escaping @MainActor (Value) -> Void,
        failed: @escaping @MainActor (any Error) -> Void = { _ in }
    ) -> Value? {
        if case .coordinator(let coordinator, nil) = source {
            coordinator.row(of: key, isShown: true, at: time)
        }
        if let value = cached(key, in: source) { return value }
        if key == self.key, let request, request.isPending {
            switch source {
            case .fetcher(_, let priority): request.priority = priority
            case .coordinator(let coordinator, let path):
                if let path = path ?? coordinator.path(of: key) { coordinator.willDisplay(self, at: path) }
            }
            return nil
        }
        request?.cancel()
        self.key = key
        generation += 1
        let generation = self.generation
        let completion: @MainActor @Sendable (Result<Value, any Error>) -> Void = { [weak self] result in
            guard let self, self.generation == generation else { return }
            switch result {
            case .success(let value): deliver(value)
            case .failure(let error) where !(error is CancellationError): failed(error)
            case .failure: break
            }
        }
        switch source {
        case .fetcher(let fetcher, let priority):
            request = fetcher.requestDisplay(of: key, priority: priority, completion: completion)
        case .coordinator(let coordinator, let path):
            // The row's own key: the coordinator's data may be older or newer than the row's.
            if let path = path ?? coordinator.path(of: key) {
                request = coordinator.requestDisplay(of: key, at: path, for: self, completion: completion)
            } else {
                // A key the coordinator's rows do not list (yet): asked for as a plain display request.
                request = coordinator.fetcher.requestDisplay(of: key, completion: completion)
            }
        }
        return nil
    }

    /// The row disappeared at `time`: its request is lowered or withdrawn,
    /// as the row said.
    package func disappeared(from source: Source, at time: Duration = .zero) {
        if case .coordinator(let coordinator, nil) = source, let key {
            coordinator.row(of: key, isShown: false, at: time)
        }
        guard let request, request.isPending else { return }
        switch (onDisappear, source) {
        case (.cancel, _):
            request.cancel()
            self.request = nil
        case (.lowerPriority, .fetcher):
            request.priority = .low
        case (.lowerPriority, .coordinator(let coordinator, _)):
            coordinator.didEndDisplaying(self)
        }
    }

    /// The row went away for good: its request is withdrawn.
    package func ended() {
        request?.cancel()
        request = nil
    }

    // A row SwiftUI discards for good takes its request with it: its
    // completion (and the coordinator's record) end with a cancellation.
    isolated deinit {
        request?.cancel()
    }

    private func cached(_ key: Key, in source: Source) -> Value? {
        switch source {
        case .fetcher(let fetcher, _): fetcher.fetchedData(for: key)
        case .coordinator(let coordinator, _): coordinator.fetcher.fetchedData(for: key)
        }
    }
}
