#if Tools
import Foundation
import Lookahead

/// Ends the process with a message when one benchmark step runs past its time limit,
/// so that a fetcher that never becomes idle shows up as a finding, not as a hang.
final class StepWatchdog: Sendable {
    private struct Step {
        var number = 0
        var name = ""
    }

    private let timeLimit: Double
    private let current = LockedValue(Step())

    init(timeLimit: Double) {
        self.timeLimit = timeLimit
    }

    func begin(_ name: String) {
        let number = current.withLock { step in
            step.number += 1
            step.name = name
            return step.number
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeLimit) { [self] in
            guard let name = current.withLock({ $0.number == number ? $0.name : nil }) else { return }
            StandardStreams.writeError(
                "error: step \"\(name)\" did not finish within \(timeLimit) s; giving up\n")
            exit(2)
        }
    }

    func end() {
        current.withLock { $0.number += 1 }
    }
}
#endif
