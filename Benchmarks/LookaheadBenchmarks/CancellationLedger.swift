import Lookahead

/// Counts, for one fetcher under test, the loads that started and the loads that
/// ran to their end although `cancelFetch(_:)` had already been called for their key.
///
/// Both fetchers record a cancel *before* calling into the fetcher, and a
/// completion right after the load returns normally, so the two counts mean the
/// same thing on both sides. A key stays marked once cancelled: the counts are
/// exact only for workloads that fetch each key once (fetch-cancel does).
final class CancellationLedger<Key: Hashable & Sendable>: Sendable {
    private struct Counts {
        var cancelledKeys: Set<Key> = []
        var started = 0
        var completedAfterCancel = 0
    }

    private let counts = LockedValue(Counts())
    /// Whether cancels are recorded at all: only the workload that reports
    /// completions after cancel pays for the bookkeeping, so that the others
    /// time the fetchers and not the ledger.
    private let tracksCancellations: Bool

    init(tracksCancellations: Bool = true) {
        self.tracksCancellations = tracksCancellations
    }

    func recordCancel(of key: Key) {
        guard tracksCancellations else { return }
        counts.withLock { _ = $0.cancelledKeys.insert(key) }
    }

    func recordStart() {
        counts.withLock { $0.started += 1 }
    }

    func recordCompletion(of key: Key) {
        guard tracksCancellations else { return }
        counts.withLock { counts in
            if counts.cancelledKeys.contains(key) {
                counts.completedAfterCancel += 1
            }
        }
    }

    var started: Int { counts.withLock { $0.started } }

    var completedAfterCancel: Int { counts.withLock { $0.completedAfterCancel } }
}
