// The photo grid: a LazyVGrid of square cells that load ahead of the user,
// one call site for iOS 16, 17 and 18 — the modifier reads the width, follows
// the photos and the scroll; each cell shows its own photo, faded in.

#if canImport(UIKit)
import Lookahead
import LookaheadImages
import LookaheadSwiftUI
import SwiftUI

/// A grid of 5 000 photos that load ahead of the user.
@MainActor
public struct PhotoGridView: View {
    @State private var store: PhotoStore
    @State private var coordinator: PrefetchCoordinator<Photo.ID, DecodedImage<UIImage>>

    public init() {
        let store = PhotoStore()
        _store = State(initialValue: store)
        _coordinator = State(initialValue: PrefetchCoordinator(fetcher: store.pipeline.fetcher))
    }

    public var body: some View {
        ScrollView {
            LazyVGrid(columns: Array(repeating: GridItem(.flexible(), spacing: 2), count: 3), spacing: 2) {
                ForEach(store.photos) { photo in
                    FetchedContent(photo.id, in: coordinator) { thumbnail in
                        Color.gray.opacity(0.2)
                            .aspectRatio(1, contentMode: .fill)
                            .overlay {
                                if let thumbnail {
                                    Image(uiImage: thumbnail.image).resizable().scaledToFill().transition(.opacity)
                                }
                            }
                            .clipped()
                            .animation(.easeIn(duration: 0.2), value: thumbnail != nil)
                    }
                }
            }
        }
        .lookaheadPrefetching(coordinator, keys: store.photos.map(\.id), geometry: .grid(columns: 3, spacing: 2))
    }
}
#endif
