// The loader of a fetcher torture run: a function of the key with seeded
// delays and outcomes, which counts the calls still running.

import Lookahead

/// Loads `TortureValue.expected(for:)`, after a seeded delay, or fails.
///
/// Each call draws its outcome from the run's seed and the call's serial
/// number: an immediate value; a value after a few yields (giving up when
/// cancelled); a transient failure (retried by the fetcher); a permanent
/// failure; a long load that waits on the ``LoadHold`` (giving up when
/// cancelled, or not); or a value after a few yields that ignores
/// cancellation. It counts the calls still running, so that a load left
/// running when nobody wants it, or after the fetcher is gone, is caught.
final class TortureLoader: Sendable {
    /// What the loader has done so far: the report's counts.
    typealias Counts = FetcherTortureReport.LoaderCalls

    let seed: UInt64
    let hold: LoadHold
    private let state = LockedValue(Counts())

    init(seed: UInt64, hold: LoadHold) {
        self.seed = seed
        self.hold = hold
    }

    /// The counts now.
    var counts: Counts { state.withLock { $0 } }

    func load(_ key: Int) async throws -> TortureValue {
        let serial = state.withLock { counts in
            counts.calls += 1
            counts.active += 1
            return counts.calls
        }
        defer { state.withLock { $0.active -= 1 } }
        var random = TortureRandom(seed: seed, stream: 0x10AD, substream: UInt64(serial))
        let value = TortureValue.expected(for: key)
        switch random.next(below: 100) {
        case 0..<45:
            return value
        case 45..<65:
            for _ in 0...random.next(below: 6) {
                await Task.yield()
                if Task.isCancelled { return try giveUp() }
            }
            return value
        case 65..<72:
            await Task.yield()
            state.withLock { $0.transientFailures += 1 }
            throw TransientTortureError(key: key)
        case 72..<76:
            state.withLock { $0.permanentFailures += 1 }
            throw PermanentTortureError(key: key)
        case 76..<90:
            guard await hold.wait(honoursCancellation: true) else { return try giveUp() }
            return value
        case 90..<95:
            _ = await hold.wait(honoursCancellation: false)
            return finishIgnoringCancellation(value)
        default:
            for _ in 0..<8 { await Task.yield() }
            return finishIgnoringCancellation(value)
        }
    }

    private func giveUp() throws -> TortureValue {
        state.withLock { $0.cancelled += 1 }
        throw CancellationError()
    }

    private func finishIgnoringCancellation(_ value: TortureValue) -> TortureValue {
        if Task.isCancelled { state.withLock { $0.ignoredCancellations += 1 } }
        return value
    }
}
