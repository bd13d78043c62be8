// CHECK-ONLY. Never part of a product: Scripts/check-apple.sh compiles it
// beside code that uses iOS 18's SwiftUI scroll API, because the iPhoneOS
// 17.4 SDK the check runs against predates that API. Each declaration is
// copied from Apple's documentation (developer.apple.com/documentation/swiftui,
// the pages of the same names) with its availability; only the members the
// package and its examples use are declared.

import CoreGraphics
import SwiftUI

/// ScrollGeometry: "A type that defines the geometry of a scroll view."
@available(iOS 18.0, macOS 15.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
struct ScrollGeometry: Equatable, Sendable {
    var contentOffset: CGPoint
    var contentSize: CGSize
    var contentInsets: EdgeInsets
    var containerSize: CGSize
    var visibleRect: CGRect { CGRect(origin: contentOffset, size: containerSize) }
    var bounds: CGRect { CGRect(origin: contentOffset, size: containerSize) }
}

/// ScrollPhase: "the state of a scroll gesture of a scrollable view" (`@frozen` in
/// SwiftUI; the attribute means nothing on an internal copy).
@available(iOS 18.0, macOS 15.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
enum ScrollPhase: Equatable, Sendable {
    case idle, tracking, interacting, decelerating, animating
    var isScrolling: Bool { self != .idle }
}

/// ScrollPhaseChangeContext: "more content when the phase of a scroll view changes".
@available(iOS 18.0, macOS 15.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
struct ScrollPhaseChangeContext {
    var geometry: ScrollGeometry { fatalError("check-only") }
    var velocity: CGVector? { nil }
}

@available(iOS 18.0, macOS 15.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
extension View {
    /// `nonisolated func onScrollGeometryChange<T>(for type: T.Type, of transform: @escaping (ScrollGeometry) -> T,
    /// action: @escaping (T, T) -> Void) -> some View where T : Equatable`
    nonisolated func onScrollGeometryChange<T: Equatable>(
        for type: T.Type, of transform: @escaping (ScrollGeometry) -> T, action: @escaping (T, T) -> Void
    ) -> some View { self }

    /// `nonisolated func onScrollPhaseChange(_ action: @escaping (ScrollPhase, ScrollPhase) -> Void) -> some View`
    nonisolated func onScrollPhaseChange(_ action: @escaping (ScrollPhase, ScrollPhase) -> Void) -> some View { self }

    /// `nonisolated func onScrollPhaseChange(_ action: @escaping (ScrollPhase, ScrollPhase, ScrollPhaseChangeContext) -> Void) -> some View`
    nonisolated func onScrollPhaseChange(
        _ action: @escaping (ScrollPhase, ScrollPhase, ScrollPhaseChangeContext) -> Void
    ) -> some View { self }
}
