// What the delegate bookkeeping noticed, said in a debug build where Xcode
// shows it (the unified log), and nowhere in a release build. Compiled only
// where UIKit exists.

#if canImport(UIKit) && !os(watchOS)
import Lookahead
import os

/// Debug-build reports of a coordinator cut off from its view.
enum AttachmentDiagnostics {
    private static var log: Logger { Logger(subsystem: "Lookahead", category: "PrefetchCoordinator") }

    static func report(_ diagnostic: DelegateAttachment.Diagnostic) {
        #if DEBUG
        switch diagnostic {
        case .delegateReplaced(let replacement):
            log.fault(
                """
                PrefetchCoordinator: the view's delegate was set to \(replacement, privacy: .public) after the \
                coordinator attached, which cut it off; it wraps that delegate again now. Set the delegate \
                (or an IGListKit adapter's collectionView) before making the coordinator.
                """)
        case .coordinatorSuperseded:
            log.fault(
                """
                PrefetchCoordinator: cells ask through a coordinator whose view another coordinator was \
                attached to since; only the newest plans. Keep one coordinator per view.
                """)
        }
        #endif
    }
}
#endif
