// CHECK-ONLY. What the README's and the DocC catalog's Swift snippets assume
// an app already has (its model, its API client, its views and the view
// controller's properties), so that each snippet type-checks as it would in
// that app (Scripts/check-apple.sh). A snippet's own declarations shadow these.

public import Lookahead
public import LookaheadImages
public import UIKit
public import SwiftUI

// The model and the API client.
public struct Item: Identifiable, Hashable, Sendable {
    public let id: Int
}
public struct Story: Identifiable, Hashable, Sendable {
    public let id: Int
}
public struct Photo: Identifiable, Hashable, Sendable {
    public let id: Int
}
public struct Thumbnail: Sendable {
    public init() {}
}
public struct StoriesResponse: Sendable {
    public let stories: [Story]
    public let total: Int
}
public struct API: Sendable {
    public func item(_ id: Item.ID) async throws -> Item { Item(id: id) }
    public func stories(offset: Int, limit: Int) async throws -> StoriesResponse {
        StoriesResponse(stories: [], total: 0)
    }
    public func thumbnail(_ id: Photo.ID) async throws -> Thumbnail { Thumbnail() }
}
public let api = API()

/// What an app records its figures with.
public struct Metrics: Sendable {
    public func record(_ event: FetchEvent<Item.ID>) {}
}
public let metrics = Metrics()

// The view controller's state, as the snippets use it.
@MainActor public var ids: [Item.ID] = []
@MainActor public var upcomingIDs: [Item.ID] = []
@MainActor public var items: [Item] = []
@MainActor public var collectionView: UICollectionView! = nil
@MainActor public var coordinator: PrefetchCoordinator<Item.ID, Item>! = nil
@MainActor public var fetcher: AsyncFetcher<Item.ID, Item>! = nil
@MainActor public var indexPath = IndexPath(item: 0, section: 0)
@MainActor public var cell: ItemCell! = nil
@MainActor public var scrollView: UIScrollView! = nil
@MainActor public var traceURL = URL(fileURLWithPath: "/tmp/trace.csv")
@MainActor public var profileURL = URL(fileURLWithPath: "/tmp/profile.json")

/// A cell of the app's collection view.
public final class ItemCell: UICollectionViewCell {
    public var request: FetchTask?
    public func show(_ item: Item?) {}
}

/// A SwiftUI view of the app's that shows one thumbnail.
public struct ThumbnailView: View {
    public init(id: Photo.ID, fetcher: AsyncFetcher<Photo.ID, Thumbnail>) {}
    public var body: some View { EmptyView() }
}

/// A row of a feed of carousels.
public struct FeedRow: Sendable {
    public var items: [Item]
}
@MainActor public var rows: [FeedRow] = []
@MainActor public var feedLayout = CarouselFeedLayout(width: 390, rows: [])
@MainActor public var newFeedLayout = CarouselFeedLayout(width: 390, rows: [])
@MainActor public var nestedCoordinator: NestedPrefetchCoordinator<Item.ID, Item>! = nil

// The code `lookahead tune` prints names the app's key, value and loader.
public typealias Key = Item.ID
public typealias Value = Item
public let load: @Sendable (Item.ID) async throws -> Item = { id in Item(id: id) }

extension API {
    /// The URL of an item.
    public func url(for id: Item.ID) -> URL { URL(string: "https://example.com/items/\(id)")! }
}
extension Item: Decodable {
    public init(from decoder: any Decoder) throws { self.init(id: try Int(from: decoder)) }
}
extension ThumbnailView {
    /// A thumbnail, or its placeholder.
    public init(_ thumbnail: Thumbnail?) { self.init(id: 0, fetcher: AsyncFetcher { _ in Thumbnail() }) }
}

// A paged feed of posts, and the pager and HTTP loader the paging snippets use.
public struct Post: Identifiable, Hashable, Sendable {
    public let id: Int
}
@MainActor public var pager: Pager<Item>! = nil
extension API {
    /// The URL of the page `request` asks for.
    public func postsURL(for request: PageRequest) -> URL { URL(string: "https://example.com/posts")! }
    /// The page of posts in `data`.
    public func page(decoding data: Data, for request: PageRequest) throws -> Page<Post> { Page(items: []) }
}
@MainActor public var dataSource: UICollectionViewDiffableDataSource<Int, Item.ID>! = nil

// What doc comments' snippets name in passing: a data source's index paths,
// a frame's time, a drag's target, a file to write.
@MainActor public var indexPaths: [IndexPath] = []
@MainActor public var now = Duration.zero
@MainActor public var target = CGPoint.zero
@MainActor public var url = URL(fileURLWithPath: "/tmp/out")
@MainActor public var thumbnailsPath = NSTemporaryDirectory() + "thumbnails"
extension API {
    /// An image's encoded bytes, at a size.
    public func image(_ id: Int, size: Int) async throws -> Data { Data() }
}
extension Thumbnail {
    /// A thumbnail decoded from PNG bytes.
    public init(png: [UInt8]) throws { self.init() }
}

// A photo grid's cell and the coordinator its images come through.
public final class PhotoCell: UICollectionViewCell {
    public let imageView = UIImageView()
}
@MainActor public var photos: PrefetchCoordinator<URL, DecodedImage<UIImage>>! = nil
