#if Tools
import Foundation

/// A progress bar on standard error: redrawn in place on a terminal, one line
/// per step otherwise (so that logs stay readable).
final class ProgressBar {
    let total: Int
    let isTerminal = isatty(STDERR_FILENO) != 0
    let width = 30

    init(total: Int) {
        self.total = max(total, 1)
    }

    func update(completed: Int, label: String) {
        let filled = width * completed / total
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        let line = "\(bar) \(completed)/\(total) \(label)"
        if isTerminal {
            StandardStreams.writeError("\r\u{1B}[2K" + line)
        } else {
            StandardStreams.writeError(line + "\n")
        }
    }

    func finish() {
        if isTerminal { StandardStreams.writeError("\n") }
    }
}
#endif
