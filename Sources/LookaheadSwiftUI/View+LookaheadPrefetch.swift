// The row modifier: a List / LazyVStack / LazyVGrid row reports its
// appearance and disappearance to a prefetcher. Compiled only where SwiftUI
// exists; an empty module elsewhere.

#if canImport(SwiftUI)
    public import Lookahead
    public import SwiftUI

    extension View {
        /// Reports this row, at `index` in the list, appearing and
        /// disappearing to `prefetcher`, which prefetches the rows around
        /// the visible ones (`ScrollViewPrefetcher`).
        ///
        /// ```swift
        /// LazyVGrid(columns: columns) {
        ///     ForEach(Array(photos.enumerated()), id: \.element.id) { index, photo in
        ///         PhotoCell(photo: photo).lookaheadPrefetch(index, in: prefetcher)
        ///     }
        /// }
        /// ```
        @MainActor
        public func lookaheadPrefetch(_ index: Int, in prefetcher: ScrollViewPrefetcher) -> some View {
            onAppear { prefetcher.onAppear(index) }
                .onDisappear { prefetcher.onDisappear(index) }
        }

        /// Reports this row, at `index`, to a `RowPrefetcher`, whose keys
        /// are looked up on the main actor.
        @MainActor
        public func lookaheadPrefetch<Key, Value>(_ index: Int, in prefetcher: RowPrefetcher<Key, Value>) -> some View {
            lookaheadPrefetch(index, in: prefetcher.rows)
        }
    }
#endif
