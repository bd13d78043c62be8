// The photo grid: a LazyVGrid of fixed cells, one prefetch path per iOS
// version. On iOS 18 the scroll view's geometry drives the adaptive
// coordinator, which knows the grid's frames (a UniformGridLayout), and each
// cell's display request goes through it at the planner's priority. Below
// iOS 18 the rows report appearing to a row prefetcher, and each cell asks
// the fetcher itself.

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

        public init() {}

        public var body: some View {
            GeometryReader { geometry in
                if #available(iOS 18, macOS 15, tvOS 18, watchOS 11, visionOS 2, *) {
                    CoordinatedGrid(store: store, width: geometry.size.width)
                } else {
                    RowReportingGrid(store: store)
                }
            }
        }

        static var gridColumns: [GridItem] {
            Array(repeating: GridItem(.flexible(), spacing: spacing), count: columns)
        }
    }

    /// iOS 18: the coordinator plans from the scroll geometry; cells ask through it.
    @available(iOS 18, macOS 15, tvOS 18, watchOS 11, visionOS 2, *)
    @MainActor
    private struct CoordinatedGrid: View {
        let store: PhotoStore
        @State private var coordinator: PrefetchCoordinator<Photo.ID, PhotoImage>

        init(store: PhotoStore, width: Double) {
            self.store = store
            let ids = store.photos.map(\.id)
            let layout = UniformGridLayout(
                width: max(width, 1), columns: PhotoGridView.columns, itemCount: ids.count,
                spacing: PhotoGridView.spacing, aspectRatio: 1)
            _coordinator = State(
                initialValue: PrefetchCoordinator(
                    fetcher: store.fetcher, layoutSource: FixedLayoutSource(layout: layout)
                ) {
                    path in ids.indices.contains(path.item) ? ids[path.item] : nil
                })
        }

        var body: some View {
            ScrollView {
                LazyVGrid(columns: PhotoGridView.gridColumns, spacing: PhotoGridView.spacing) {
                    ForEach(Array(store.photos.enumerated()), id: \.element.id) { index, photo in
                        FetchedContent(photo.id, at: index, in: coordinator) { image in PhotoCell(image: image) }
                    }
                }
            }
            .lookaheadScrolling(coordinator)
        }
    }

    /// Below iOS 18: rows report appearing to a row prefetcher; cells ask the fetcher.
    @available(iOS 17, macOS 14, *)
    @MainActor
    private struct RowReportingGrid: View {
        let store: PhotoStore
        @State private var rows: RowPrefetcher<Photo.ID, PhotoImage>

        init(store: PhotoStore) {
            self.store = store
            _rows = State(
                initialValue: RowPrefetcher(prefetcher: Prefetcher(fetcher: store.fetcher), keys: store.photos.map(\.id)))
        }

        var body: some View {
            ScrollView {
                LazyVGrid(columns: PhotoGridView.gridColumns, spacing: PhotoGridView.spacing) {
                    ForEach(Array(store.photos.enumerated()), id: \.element.id) { index, photo in
                        FetchedContent(photo.id, from: store.fetcher) { image in PhotoCell(image: image) }
                            .lookaheadPrefetch(index, in: rows)
                    }
                }
            }
        }
    }

    /// One photo: its image, or a placeholder while it loads.
    @MainActor
    private struct PhotoCell: View {
        let image: PhotoImage?

        var body: some View {
            Rectangle()
                .fill(image.map { Color(hue: $0.hue, saturation: 0.6, brightness: 0.9) } ?? Color.gray.opacity(0.2))
                .aspectRatio(1, contentMode: .fill)
        }
    }
#endif
