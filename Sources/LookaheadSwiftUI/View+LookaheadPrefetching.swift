// The one modifier a SwiftUI list or grid needs: the app hands its items'
// keys and its grid's shape; the modifier measures the width, tells the
// coordinator whenever either changes, and feeds it the scroll — the scroll
// view's geometry on iOS 18, the rows SwiftUI makes before. Forwarding only:
// the decisions are the portable coordinator's. Compiled only where SwiftUI
// exists.

#if canImport(SwiftUI)
public import Lookahead
public import SwiftUI

extension View {
    /// Prefetches ahead of this scroll view's rows: apply it to the
    /// `ScrollView` of a `LazyVGrid` or `LazyVStack` whose rows are
    /// `FetchedContent(key, in: coordinator)`.
    ///
    /// Hand it your items' keys in order and the grid's shape as you give it
    /// to SwiftUI, on every build: the coordinator keeps no copy of either.
    /// The modifier reads the width, and when the width, the keys or the
    /// shape change (a rotation, Split View, a page appended) the layout is
    /// made again and every request follows its key — nothing on screen
    /// restarts. On iOS 18 the scroll view's geometry and phases drive the
    /// planner (a fling's landing asked for at once); before, the rows
    /// SwiftUI makes tell it where the list is.
    ///
    /// <!-- snippet: declarations -->
    /// ```swift
    /// @MainActor
    /// struct PhotoGrid: View {
    ///     let photos: [Photo]
    ///     @State var coordinator: PrefetchCoordinator<Photo.ID, Thumbnail>
    ///
    ///     var body: some View {
    ///         ScrollView {
    ///             LazyVGrid(columns: Array(repeating: GridItem(.flexible(), spacing: 2), count: 3), spacing: 2) {
    ///                 ForEach(photos) { photo in
    ///                     FetchedContent(photo.id, in: coordinator) { ThumbnailView($0) }
    ///                 }
    ///             }
    ///         }
    ///         .lookaheadPrefetching(coordinator, keys: photos.map(\.id), geometry: .grid(columns: 3, spacing: 2))
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - coordinator: a coordinator made with `PrefetchCoordinator(fetcher:)`.
    ///   - keys: the rows' keys, in order.
    ///   - geometry: the rows' shape (`.grid(columns:spacing:aspectRatio:)`, `.rows(height:spacing:)`).
    ///   - snaps: whether the scroll view snaps (`scrollTargetBehavior`): it
    ///     lands where SwiftUI says, so no landing is projected.
    @MainActor
    public func lookaheadPrefetching<Key, Value>(
        _ coordinator: PrefetchCoordinator<Key, Value>, keys: [Key], geometry: ItemGeometry, snaps: Bool = false
    ) -> some View {
        modifier(LookaheadPrefetchingModifier(coordinator: coordinator, keys: keys, geometry: geometry, snaps: snaps))
    }
}

@MainActor
private struct LookaheadPrefetchingModifier<Key: Hashable & Sendable, Value: Sendable>: ViewModifier {
    let coordinator: PrefetchCoordinator<Key, Value>
    let keys: [Key]
    let geometry: ItemGeometry
    let snaps: Bool
    @State private var size = CGSize.zero

    func body(content: Content) -> some View {
        scrolling(content)
            .background(
                GeometryReader { proxy in
                    Color.clear
                        .onAppear { measure(proxy.size) }
                        .onChange(of: proxy.size) { measure($0) }
                }
            )
            .onAppear { update() }
            .onChange(of: keys) { _ in update() }
            .onChange(of: geometry) { _ in update() }
            .trimmingCachesInTheBackground()
    }

    @ViewBuilder
    private func scrolling(_ content: Content) -> some View {
        if #available(iOS 18, macOS 15, tvOS 18, watchOS 11, visionOS 2, *) {
            content.lookaheadScrolling(coordinator, snaps: snaps)
        } else {
            content
        }
    }

    private func measure(_ size: CGSize) {
        self.size = size
        coordinator.rows?.viewportHeight = Double(size.height)
        update(width: Double(size.width))
    }

    private func update(width: Double? = nil) {
        let width = width ?? Double(size.width)
        guard width > 0 else { return }
        coordinator.update(keys: keys, geometry: geometry, width: width)
    }
}
#endif
