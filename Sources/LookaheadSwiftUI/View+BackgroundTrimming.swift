// The app going to the background, as a SwiftUI scene's phase tells it,
// trims the caches that trim on memory pressure (once, however many views
// say so). Compiled only where SwiftUI exists.

#if canImport(SwiftUI)
import Lookahead
import SwiftUI

extension View {
    /// Tells the caches that trim on memory pressure when the scene goes
    /// to the background; `lookaheadScrolling(_:)` and `FetchedContent`
    /// apply it.
    @MainActor
    func trimmingCachesInTheBackground() -> some View {
        modifier(BackgroundTrimming())
    }
}

@MainActor
private struct BackgroundTrimming: ViewModifier {
    @Environment(\.scenePhase) private var scenePhase

    func body(content: Content) -> some View {
        content.onChange(of: scenePhase) { phase in
            switch phase {
            case .background: MemoryPressureRegistry.shared.appDidEnterBackground()
            case .active: MemoryPressureRegistry.shared.appDidBecomeActive()
            default: break
            }
        }
    }
}
#endif
