@testable import Lookahead

/// Test helpers that take a scheduler's pending actions and read them, for
/// the scenario tests that pin exact actions.
extension FetchScheduler {
    /// Takes every pending action, in order.
    mutating func drainActions() -> [Action] {
        var actions: [Action] = []
        while let action = nextAction() { actions.append(action) }
        return actions
    }

    /// Takes every pending action and returns the loads started.
    mutating func startedLoads() -> [LoadID] {
        drainActions().compactMap { if case .start(let id, _, _) = $0 { id } else { nil } }
    }
}

extension FetchScheduler.Action {
    /// The attempt the action is about.
    var loadID: FetchScheduler.LoadID {
        switch self {
        case .start(let id, _, _), .cancel(let id, _), .reprioritize(let id, _, _): id
        }
    }

    /// The key the action is about.
    var key: Key {
        switch self {
        case .start(_, let key, _), .cancel(_, let key), .reprioritize(_, let key, _): key
        }
    }
}

extension FetchScheduler.FailureDisposition {
    /// Whether the failure concerned nobody (the load had been cancelled).
    var isDiscarded: Bool { if case .discarded = self { true } else { false } }
}
