/// The queue where a fetcher's main-actor completions wait for the main
/// actor: what keeps them in order.
///
/// Not a `Task { @MainActor in … }` per completion: tasks of different
/// priorities may run out of order, and each costs a task. Completions are
/// appended under a small lock and one main-actor task runs them all, oldest
/// first, taking those that arrive meanwhile too; it never holds the lock
/// while a completion runs.
@usableFromInline
final class MainActorDeliveryQueue: Sendable {
    @usableFromInline
    typealias Entry = @MainActor @Sendable () -> Void

    @usableFromInline
    struct State {
        @usableFromInline var entries: [Entry] = []
        /// Whether a main-actor task is scheduled or running to drain `entries`.
        @usableFromInline var isDraining = false

        @inlinable
        init() {}
    }

    @usableFromInline let state = LockedValue(State())

    @inlinable
    init() {}

    /// Appends `entry`, to run on the main actor after those before it. Never
    /// runs it inside this call, nor blocks on the main actor.
    ///
    /// - Complexity: O(1) amortized.
    @inlinable
    func enqueue(_ entry: @escaping Entry) {
        let startsDrain = state.withLock { state in
            state.entries.append(entry)
            guard !state.isDraining else { return false }
            state.isDraining = true
            return true
        }
        if startsDrain {
            Task { @MainActor in self.drain() }
        }
    }

    /// Runs every entry, oldest first, until none is left.
    @MainActor
    @usableFromInline
    func drain() {
        while true {
            let entries: [Entry] = state.withLock { state in
                guard !state.entries.isEmpty else {
                    state.isDraining = false
                    return []
                }
                defer { state.entries = [] }
                return state.entries
            }
            guard !entries.isEmpty else { return }
            for entry in entries { entry() }
        }
    }
}
