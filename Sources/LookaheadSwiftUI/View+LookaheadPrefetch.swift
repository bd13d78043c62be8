// The row modifier: a List / LazyVStack / LazyVGrid row reports its
// appearance and disappearance to a prefetcher. Compiled only where SwiftUI
// exists; an empty module elsewhere.

#if canImport(SwiftUI)
public import Lookahead
public import SwiftUI

extension View {
    /// Reports this row, at `index` in the list, appearing and
    /// disappearing to `prefetcher`, which prefetches the rows around the
    /// visible ones.
    ///
    /// <!-- snippet: declarations -->
    /// ```swift
    /// @MainActor
    /// struct PhotoList: View {
    ///     let photos: [Photo]
    ///     let fetcher: AsyncFetcher<Photo.ID, Thumbnail>
    ///     @State var rows: RowPrefetcher<Photo.ID, Thumbnail>
    ///
    ///     var body: some View {
    ///         List(Array(photos.enumerated()), id: \.element.id) { index, photo in
    ///             FetchedContent(photo.id, from: fetcher) { thumbnail in ThumbnailView(thumbnail) }
    ///                 .lookaheadPrefetch(index, in: rows)
    ///         }
    ///     }
    /// }
    /// ```
    @MainActor
    public func lookaheadPrefetch<Key, Value>(_ index: Int, in prefetcher: RowPrefetcher<Key, Value>) -> some View {
        let rows = prefetcher.rows
        return onAppear { rows.onAppear(index) }
            .onDisappear { rows.onDisappear(index) }
    }
}
#endif
