#if Tools
import Lookahead

/// The server's statistics and one request's part in them.
///
/// A ticket leaves `inFlight` exactly once, however its request ends; the
/// outcome (completed, ended by the client, or neither) is recorded once.
final class RequestTicket: Sendable {
    /// The request's sequence number since the server started (from 1).
    let number: Int
    private let statistics: LockedValue<FeedServerStatistics>
    private let released = LockedValue(false)

    init(statistics: LockedValue<FeedServerStatistics>) {
        self.statistics = statistics
        number = statistics.withLock { statistics in
            statistics.requests += 1
            statistics.inFlight += 1
            statistics.maxInFlight = max(statistics.maxInFlight, statistics.inFlight)
            return statistics.requests
        }
    }

    /// Leaves `inFlight` (once; later calls do nothing).
    func release() {
        let first = released.withLock { released in
            defer { released = true }
            return !released
        }
        if first { statistics.withLock { $0.inFlight -= 1 } }
    }

    /// The response was written in full.
    func complete() {
        release()
        statistics.withLock { $0.completed += 1 }
    }

    /// The client went away before the response was finished.
    func endByClient() {
        release()
        statistics.withLock { $0.endedByClient += 1 }
    }

    /// The request would have waited, but too many already were: answered 503.
    func countRefusedWait() {
        statistics.withLock { $0.waitsRefused += 1 }
    }

    /// Counts a fault injected into this request.
    func countFault(_ fault: InjectedFault) {
        statistics.withLock { statistics in
            statistics.faultsInjected += 1
            switch fault {
            case .serverError: statistics.serverErrorsInjected += 1
            case .truncate: statistics.truncationsInjected += 1
            case .stall: statistics.stallsInjected += 1
            case .malformed: statistics.malformedInjected += 1
            case .tooManyRequests: statistics.tooManyRequestsInjected += 1
            }
        }
    }
}
#endif
