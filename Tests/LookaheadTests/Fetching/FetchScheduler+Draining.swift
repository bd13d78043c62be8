@testable import Lookahead

/// Test helpers that take a scheduler's pending actions, for the scenario
/// tests that pin exact actions.
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
