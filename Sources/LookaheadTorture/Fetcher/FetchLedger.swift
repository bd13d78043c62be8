// The reference model of a fetcher torture run: every request made, and what
// each may legitimately receive, checked as deliveries arrive.

import Lookahead

/// Records every display request (`fetchAsync` with a completion, `await
/// value(for:)`) and checks each delivery against what the request may get.
///
/// The model is deliberately simple, so that it is obviously right:
/// - a request ends exactly once: a second delivery is a duplicate; a request
///   still open when the fetcher is idle (completions) or its task has ended
///   (`value(for:)`) is lost;
/// - a value is `TortureValue.expected(for: key)` of the request's key, and a
///   loader error carries the request's key; anything else is misdelivered;
/// - a failure is a loader error (permanent, or transient after the retries),
///   or a `CancellationError` for a `value(for:)` whose task was cancelled;
///   anything else is unexpected.
///
/// - Complexity: every method is O(1) but `settle()`, which is O(requests
///   made since the last call).
final class FetchLedger: Sendable {
    /// How a request was made.
    enum Kind: Sendable {
        case completion
        case value
    }

    /// The checker's findings and tallies: the report's.
    typealias Counts = FetcherTortureReport.Requests

    private struct Request {
        let key: Int
        let kind: Kind
        var deliveries: UInt8 = 0
        var isCancelled = false
    }

    private struct State {
        var requests: [Request] = []
        var counts = Counts()
        /// Requests before this index have been checked for a delivery.
        var settledCount = 0
    }

    private let state = LockedValue(State())

    /// The findings so far.
    var counts: Counts { state.withLock { $0.counts } }

    /// Records a request for `key`; returns its number.
    func issue(key: Int, kind: Kind) -> Int {
        state.withLock { state in
            state.requests.append(Request(key: key, kind: kind))
            state.counts.made += 1
            return state.requests.count - 1
        }
    }

    /// Records that the task awaiting request `id` was cancelled: from now on a
    /// `CancellationError` is a legitimate end for it.
    func cancel(_ id: Int) {
        state.withLock { $0.requests[id].isCancelled = true }
    }

    /// Checks a delivery to request `id`.
    func record(_ id: Int, _ result: Result<TortureValue, any Error>) {
        state.withLock { state in
            let request = state.requests[id]
            state.requests[id].deliveries = request.deliveries == .max ? .max : request.deliveries + 1
            if request.deliveries >= 1 {
                state.counts.duplicateCompletions += 1
            }
            switch result {
            case .success(let value):
                if value == .expected(for: request.key) {
                    state.counts.values += 1
                } else {
                    state.counts.misdelivered += 1
                }
            case .failure(let error as TransientTortureError):
                count(loaderErrorFor: error.key, request: request, in: &state.counts)
            case .failure(let error as PermanentTortureError):
                count(loaderErrorFor: error.key, request: request, in: &state.counts)
            case .failure(is CancellationError) where request.kind == .value && request.isCancelled:
                state.counts.cancellations += 1
            case .failure:
                state.counts.unexpectedFailures += 1
            }
        }
    }

    private func count(loaderErrorFor key: Int, request: Request, in counts: inout Counts) {
        if key == request.key {
            counts.loaderFailures += 1
        } else {
            counts.misdelivered += 1
        }
    }

    /// Checks a value found in the fetcher's cache for `key`.
    func recordCached(_ value: TortureValue?, for key: Int) {
        guard let value else { return }
        state.withLock { state in
            state.counts.cachePeeks += 1
            if value != .expected(for: key) { state.counts.misdelivered += 1 }
        }
    }

    /// Counts every request made so far that has no delivery as lost.
    ///
    /// Call it only when every request must have ended: the fetcher is idle
    /// and every `value(for:)` task has returned.
    func settle() {
        state.withLock { state in
            for index in state.settledCount..<state.requests.count where state.requests[index].deliveries == 0 {
                state.counts.lostCompletions += 1
            }
            state.settledCount = state.requests.count
        }
    }
}
