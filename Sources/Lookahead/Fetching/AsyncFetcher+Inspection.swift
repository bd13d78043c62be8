// What the tests and the soak read of a fetcher to check that every request
// it still serves is held by somebody: nothing replaced is left running
// untracked.

extension AsyncFetcher {
    /// Every request still waiting, with its key.
    package var liveRequests: [(interest: FetchInterestID, key: Key)] {
        core.state.withLock { state in
            let scheduler = state.scheduler
            return scheduler.interests.indices.compactMap { slot in
                let record = scheduler.interests[slot]
                guard record.isLive, let key = scheduler.loadKeys[record.load] else { return nil }
                return (FetchInterestID(slot: slot, generation: record.generation), key)
            }
        }
    }
}

extension AsyncFetcher {
    /// Which of `tasks` still wait for their result, under one acquisition of the lock.
    package func arePending(_ tasks: [FetchTask]) -> [Bool] {
        core.state.withLock { state in
            tasks.map { $0.owner != nil && state.scheduler.isLive($0.interest.id) }
        }
    }
}

extension AsyncFetcher {
    /// The attempt running for `key`, if one is: a load stopped and started
    /// again runs as another attempt. For tests.
    package func runningAttempt(of key: Key) -> UInt64? {
        core.state.withLock { state in
            guard let slot = state.scheduler.loadSlots[key], let record = state.scheduler.loads[slot] else {
                return nil
            }
            switch record.state {
            case .running(let serial, _), .hedged(let serial, _, _): return serial
            default: return nil
            }
        }
    }
}

extension FetchTask {
    /// The interest this request is, in its fetcher's scheduler.
    package var interestID: FetchInterestID { interest.id }
}
