// Memory warnings reach a coordinator's cache trim: the observer lives as
// long as the coordinator it forwards to. Compiled only where UIKit exists.

#if canImport(UIKit) && !os(watchOS)
    import Lookahead
    import UIKit

    /// Forwards memory warnings to a coordinator for as long as it lives.
    final class MemoryWarningObserver {
        private let token: any NSObjectProtocol

        @MainActor
        init(coordinator: any UIKitForwarding) {
            token = NotificationCenter.default.addObserver(
                forName: UIApplication.didReceiveMemoryWarningNotification, object: nil, queue: .main
            ) { [weak coordinator] _ in
                MainActor.assumeIsolated { coordinator?.didReceiveMemoryWarning(.critical) }
            }
        }

        deinit {
            NotificationCenter.default.removeObserver(token)
        }
    }
#endif
