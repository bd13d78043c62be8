// A SwiftUI row's display request: the value of its key, asked for when the
// row appears (through the list's coordinator when one drives it), lowered
// or withdrawn when it disappears, asked again when its key changes, ended
// when the row goes away for good. Forwards to the portable RowDisplay.
// Compiled only where SwiftUI exists.

#if canImport(SwiftUI)
public import Lookahead
public import SwiftUI

/// Shows `content` with the value of a key, loaded for as long as the
/// view is displayed: what a `UICollectionView` cell gets from
/// `requestDisplay(at:for:completion:)`, for a SwiftUI row.
///
/// The cached value shows at once; otherwise a display request is made
/// when the row appears — through the coordinator that drives the list, at
/// the planner's priority (a fling carrying the row away lowers it), or
/// straight to a fetcher — and the value fades in when it arrives. When the
/// row disappears the request is lowered or withdrawn (`onDisappear`, as
/// Nuke's `LazyImage`); a row the coordinator drives is then withdrawn once
/// it is out of reach, as a UIKit cell that left. A row given another key
/// asks for it; a failure shows until the row appears again or you retry.
///
/// <!-- snippet: declarations -->
/// ```swift
/// @MainActor
/// struct Thumbnails: View {
///     let photos: [Photo]
///     let coordinator: PrefetchCoordinator<Photo.ID, Thumbnail>
///
///     var body: some View {
///         ForEach(photos) { photo in
///             FetchedContent(photo.id, in: coordinator) { thumbnail in ThumbnailView(thumbnail) }
///         }
///     }
/// }
/// ```
@MainActor
public struct FetchedContent<Key: Hashable & Sendable, Value: Sendable, Content: View>: View {
    private let key: Key
    private let source: RowDisplay<Key, Value>.Source
    private let content: (FetchPhase<Value>) -> Content
    @State private var phase = FetchPhase<Value>.empty
    @State private var display: RowDisplay<Key, Value>
    @State private var isShown = false

    /// Shows the value of `key`, a row of the list `coordinator` drives
    /// (one made with `PrefetchCoordinator(fetcher:)`, its scroll view
    /// reporting through `lookaheadPrefetching(_:keys:geometry:)`): asked
    /// for at the planner's priority, re-ranked as the scroll goes, withdrawn
    /// once flung out of reach.
    public init(
        _ key: Key, in coordinator: PrefetchCoordinator<Key, Value>,
        onDisappear: DisappearBehavior = .lowerPriority, @ViewBuilder content: @escaping (Value?) -> Content
    ) {
        self.init(key, source: .coordinator(coordinator, path: nil), onDisappear: onDisappear) { content($0.value) }
    }

    /// Shows the value of `key` as ``init(_:in:onDisappear:content:)``
    /// does, handing `content` its phase: a failure to show, with a retry.
    public init(
        _ key: Key, in coordinator: PrefetchCoordinator<Key, Value>,
        onDisappear: DisappearBehavior = .lowerPriority,
        @ViewBuilder phase content: @escaping (FetchPhase<Value>) -> Content
    ) {
        self.init(key, source: .coordinator(coordinator, path: nil), onDisappear: onDisappear, content: content)
    }

    /// Shows the value of `key` from `fetcher`, asked for at `priority`
    /// (a display request's `.high` by default) while the view is displayed.
    /// Without a coordinator nothing knows how far the row went: it is
    /// withdrawn when it disappears (`onDisappear: .cancel`) unless you say otherwise.
    public init(
        _ key: Key, from fetcher: AsyncFetcher<Key, Value>, priority: FetchPriority = .high,
        onDisappear: DisappearBehavior = .cancel, @ViewBuilder content: @escaping (Value?) -> Content
    ) {
        self.init(key, source: .fetcher(fetcher, priority: priority), onDisappear: onDisappear) { content($0.value) }
    }

    private init(
        _ key: Key, source: RowDisplay<Key, Value>.Source, onDisappear: DisappearBehavior,
        content: @escaping (FetchPhase<Value>) -> Content
    ) {
        self.key = key
        self.source = source
        self.content = content
        _display = State(initialValue: RowDisplay(onDisappear: onDisappear))
    }

    public var body: some View {
        content(phase)
            .onAppear {
                isShown = true
                show(key)
            }
            .onDisappear {
                isShown = false
                display.disappeared(from: source, at: RowClock.now())
            }
            .onChange(of: key) { key in
                phase = .empty
                if isShown { show(key) }
            }
            .trimmingCachesInTheBackground()
    }

    /// Asks for `key`'s value: shown at once if cached, faded in when it arrives.
    private func show(_ key: Key) {
        let binding = $phase
        let retry: @MainActor () -> Void = { [display, source] in
            binding.wrappedValue = .empty
            _ = display.appeared(key: key, from: source, at: RowClock.now()) { value in
                withAnimation(.easeIn(duration: 0.2)) { binding.wrappedValue = .success(value) }
            }
        }
        let cached = display.appeared(key: key, from: source, at: RowClock.now()) { value in
            withAnimation(.easeIn(duration: 0.2)) { binding.wrappedValue = .success(value) }
        } failed: { error in
            binding.wrappedValue = .failure(error, retry: retry)
        }
        if let cached { phase = .success(cached) }
    }
}

/// The clock rows report appearing on: one per process, so that rows of
/// one list agree.
@MainActor
enum RowClock {
    private static let start = ContinuousClock.now
    static func now() -> Duration { start.duration(to: .now) }
}
#endif
