// The app going to the background trims the caches that trim on memory
// pressure: the process's state, as UIKit's notifications tell it, not one
// scene's phase — on an iPad with two windows, one going to the background
// must not halve the caches the other is showing. Compiled only where
// SwiftUI exists.

#if canImport(SwiftUI)
import Lookahead
import SwiftUI
#if canImport(UIKit) && !os(watchOS)
import LookaheadUIKit
#endif

extension View {
    /// Makes sure the caches that trim on memory pressure hear the app's
    /// memory warnings and its going to the background, once per process;
    /// `lookaheadScrolling(_:)` and `FetchedContent` apply it.
    @MainActor
    func trimmingCachesInTheBackground() -> some View {
        onAppear {
            #if canImport(UIKit) && !os(watchOS)
            SystemMemoryEvents.start()
            #endif
        }
    }
}
#endif
