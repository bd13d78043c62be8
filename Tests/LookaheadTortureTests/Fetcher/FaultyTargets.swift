// Deliberately faulty fetchers for the checker's tests: each breaks one
// promise of the fetcher's contract, and the run must report it in its counter.

import Lookahead

@testable import LookaheadTorture

/// Calls every `number`th completion twice.
struct DuplicatingTarget: FetchRequestTarget {
    let base: PassThroughTarget
    let calls = LockedValue(0)
    let number: Int

    func fetchAsync(
        _ key: Int, priority: FetchPriority, completion: @escaping @Sendable (Result<TortureValue, any Error>) -> Void
    ) {
        let isChosen = calls.withLock { calls in
            calls += 1
            return calls % number == 0
        }
        base.fetchAsync(key, priority: priority) { result in
            completion(result)
            if isChosen { completion(result) }
        }
    }

    func value(for key: Int, priority: FetchPriority) async throws -> TortureValue {
        try await base.value(for: key, priority: priority)
    }
}

/// Never calls the completions of the first `count` requests.
struct DroppingTarget: FetchRequestTarget {
    let base: PassThroughTarget
    let calls = LockedValue(0)
    let count: Int

    func fetchAsync(
        _ key: Int, priority: FetchPriority, completion: @escaping @Sendable (Result<TortureValue, any Error>) -> Void
    ) {
        let drops = calls.withLock { calls in
            calls += 1
            return calls <= count
        }
        base.fetchAsync(key, priority: priority) { result in
            if !drops { completion(result) }
        }
    }

    func value(for key: Int, priority: FetchPriority) async throws -> TortureValue {
        try await base.value(for: key, priority: priority)
    }
}

/// Delivers, for key `k`, what the fetcher loaded for key `k + 1`.
struct SwappingTarget: FetchRequestTarget {
    let base: PassThroughTarget

    func fetchAsync(
        _ key: Int, priority: FetchPriority, completion: @escaping @Sendable (Result<TortureValue, any Error>) -> Void
    ) {
        base.fetchAsync(key + 1, priority: priority, completion: completion)
    }

    func value(for key: Int, priority: FetchPriority) async throws -> TortureValue {
        try await base.value(for: key + 1, priority: priority)
    }
}

/// Keeps the fetcher alive in `keeper` after the run released it.
struct LeakingTarget: FetchRequestTarget {
    let base: PassThroughTarget

    init(base: PassThroughTarget, keeper: LockedValue<[AsyncFetcher<Int, TortureValue>]>) {
        self.base = base
        keeper.withLock { $0.append(base.fetcher) }
    }

    func fetchAsync(
        _ key: Int, priority: FetchPriority, completion: @escaping @Sendable (Result<TortureValue, any Error>) -> Void
    ) {
        base.fetchAsync(key, priority: priority, completion: completion)
    }

    func value(for key: Int, priority: FetchPriority) async throws -> TortureValue {
        try await base.value(for: key, priority: priority)
    }
}
