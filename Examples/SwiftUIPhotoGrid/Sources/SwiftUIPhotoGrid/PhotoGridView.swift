// The photo grid: a LazyVGrid of fixed cells. Every row reports appearing
// and disappearing to an observable row prefetcher (iOS 17); on iOS 18 the
// scroll view's geometry and phases also drive the adaptive coordinator,
// which knows the grid's frames from a UniformGridLayout.

#if canImport(SwiftUI)
    import Lookahead
    import LookaheadSwiftUI
    import SwiftUI

    /// A grid of 5 000 photos that load ahead of the user.
    @available(iOS 17, macOS 14, *)
    @MainActor
    public struct PhotoGridView: View {
        static let columns = 3
        static let spacing = 2.0

        @State private var store = PhotoStore()
        @State private var rows: ObservableRowPrefetcher<Photo.ID, PhotoImage>?
        @State private var coordinator: PrefetchCoordinator<Photo.ID, PhotoImage>?

        public init() {}

        public var body: some View {
            GeometryReader { geometry in
                ScrollView {
                    LazyVGrid(
                        columns: Array(repeating: GridItem(.flexible(), spacing: Self.spacing), count: Self.columns),
                        spacing: Self.spacing
                    ) {
                        ForEach(Array(store.photos.enumerated()), id: \.element.id) { index, photo in
                            PhotoCell(photo: photo, fetcher: store.fetcher)
                                .aspectRatio(1, contentMode: .fill)
                                .modifier(RowReporting(index: index, rows: rows?.prefetcher))
                        }
                    }
                }
                .modifier(ScrollReporting(coordinator: coordinator))
                .onAppear { setUp(width: geometry.size.width) }
            }
        }

        private func setUp(width: Double) {
            guard rows == nil else { return }
            let ids = store.photos.map(\.id)
            rows = ObservableRowPrefetcher(prefetcher: Prefetcher(fetcher: store.fetcher), keys: ids)
            // iOS 18: the grid's frames are known, so the adaptive coordinator can plan from the geometry.
            let layout = UniformGridLayout(
                width: width, columns: Self.columns, itemCount: ids.count, spacing: Self.spacing, aspectRatio: 1)
            coordinator = PrefetchCoordinator(fetcher: store.fetcher, layoutSource: FixedLayoutSource(layout: layout)) {
                path in ids.indices.contains(path.item) ? ids[path.item] : nil
            }
        }
    }

    /// Below iOS 18: every row reports its appearance.
    @MainActor
    private struct RowReporting: ViewModifier {
        let index: Int
        let rows: RowPrefetcher<Photo.ID, PhotoImage>?

        @ViewBuilder
        func body(content: Content) -> some View {
            if let rows {
                content.lookaheadPrefetch(index, in: rows)
            } else {
                content
            }
        }
    }

    /// From iOS 18: the scroll view's geometry drives the coordinator.
    @MainActor
    private struct ScrollReporting: ViewModifier {
        let coordinator: PrefetchCoordinator<Photo.ID, PhotoImage>?

        @ViewBuilder
        func body(content: Content) -> some View {
            if let coordinator {
                if #available(iOS 18, macOS 15, tvOS 18, watchOS 11, visionOS 2, *) {
                    content.lookaheadScrolling(coordinator)
                } else {
                    content
                }
            } else {
                content
            }
        }
    }

    /// One photo: shown from the cache at once, or loaded at high priority.
    @MainActor
    private struct PhotoCell: View {
        let photo: Photo
        let fetcher: AsyncFetcher<Photo.ID, PhotoImage>
        @State private var image: PhotoImage?

        var body: some View {
            Rectangle()
                .fill(image.map { Color(hue: $0.hue, saturation: 0.6, brightness: 0.9) } ?? Color.gray.opacity(0.2))
                .task(id: photo.id) {
                    image = fetcher.fetchedData(for: photo.id)
                    if image == nil { image = try? await fetcher.value(for: photo.id) }
                }
        }
    }
#endif
