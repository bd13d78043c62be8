// A SwiftUI row's display request: the value of its key, asked for when the
// row appears (through the list's coordinator when one drives it), lowered
// or withdrawn when it disappears. Forwards to the portable RowDisplay.
// Compiled only where SwiftUI exists.

#if canImport(SwiftUI)
public import Lookahead
public import SwiftUI

/// Shows `content` with the value of a key, loaded for as long as the
/// view is displayed: what a `UICollectionView` cell gets from
/// `requestDisplay(at:for:completion:)`, for a SwiftUI row.
///
/// The cached value shows at once; otherwise a display request is made
/// when the row appears — through the coordinator that drives the list,
/// at the planner's priority (a fling carrying the row away lowers it),
/// or straight to a fetcher — and `content` is called again when the
/// value arrives. When the row disappears the request is lowered or
/// withdrawn (`onDisappear`, as Nuke's `LazyImage`); when the view goes
/// away for good, it is withdrawn.
///
/// <!-- snippet: declarations -->
/// ```swift
/// @MainActor
/// struct Thumbnails: View {
///     let photos: [Photo]
///     let coordinator: PrefetchCoordinator<Photo.ID, Thumbnail>
///
///     var body: some View {
///         ForEach(Array(photos.enumerated()), id: \.element.id) { index, photo in
///             FetchedContent(photo.id, at: index, in: coordinator) { thumbnail in ThumbnailView(thumbnail) }
///         }
///     }
/// }
/// ```
@MainActor
public struct FetchedContent<Key: Hashable & Sendable, Value: Sendable, Content: View>: View {
    private let key: Key
    private let source: RowDisplay<Key, Value>.Source
    private let content: (Value?) -> Content
    @State private var value: Value?
    @State private var display: RowDisplay<Key, Value>

    /// Shows the value of `key` from `fetcher`, asked for at `priority`
    /// (a display request's `.high` by default) while the view is displayed.
    public init(
        _ key: Key, from fetcher: AsyncFetcher<Key, Value>, priority: FetchPriority = .high,
        onDisappear: DisappearBehavior = .lowerPriority, @ViewBuilder content: @escaping (Value?) -> Content
    ) {
        self.key = key
        self.source = .fetcher(fetcher, priority: priority)
        self.content = content
        _display = State(initialValue: RowDisplay(onDisappear: onDisappear))
    }

    /// Shows the value of `key`, the item at `index` of the list
    /// `coordinator` drives (its scroll view reports through
    /// `lookaheadScrolling(_:)`): asked for at the planner's priority,
    /// re-ranked each frame as a UIKit cell's.
    public init(
        _ key: Key, at index: Int, in coordinator: PrefetchCoordinator<Key, Value>,
        onDisappear: DisappearBehavior = .lowerPriority, @ViewBuilder content: @escaping (Value?) -> Content
    ) {
        self.key = key
        self.source = .coordinator(coordinator, path: ItemPath(item: index, section: 0))
        self.content = content
        _display = State(initialValue: RowDisplay(onDisappear: onDisappear))
    }

    public var body: some View {
        content(value)
            .onAppear {
                let binding = $value
                let cached = display.appeared(key: key, from: source) { binding.wrappedValue = $0 }
                if let cached { value = cached }
            }
            .onDisappear { display.disappeared(from: source) }
            .trimmingCachesInTheBackground()
    }
}
#endif
