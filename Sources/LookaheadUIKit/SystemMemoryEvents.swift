// UIKit's memory warnings and the app going to the background, posted once
// for the whole process to the caches that trim themselves. Compiled only
// where UIKit exists.

#if canImport(UIKit) && !os(watchOS)
import Lookahead
import UIKit

/// Posts UIKit's memory warnings (`.critical`) and the app entering the
/// background (`.warning`) to every cache that trims on memory pressure
/// (`MemoryCache.trimsOnMemoryPressure`). One per process: started by the
/// first coordinator attached to a view, and kept.
@MainActor
package final class SystemMemoryEvents {
    private static var started: SystemMemoryEvents?
    private let tokens: [any NSObjectProtocol]

    /// Starts posting, unless it already does.
    package static func start() {
        if started == nil { started = SystemMemoryEvents() }
    }

    private init() {
        let center = NotificationCenter.default
        tokens = [
            center.addObserver(
                forName: UIApplication.didReceiveMemoryWarningNotification, object: nil, queue: .main
            ) {
                _ in MemoryPressureRegistry.shared.post(.critical)
            },
            center.addObserver(forName: UIApplication.didEnterBackgroundNotification, object: nil, queue: .main) {
                _ in MemoryPressureRegistry.shared.appDidEnterBackground()
            },
            center.addObserver(forName: UIApplication.didBecomeActiveNotification, object: nil, queue: .main) {
                _ in MemoryPressureRegistry.shared.appDidBecomeActive()
            },
        ]
    }
}
#endif
