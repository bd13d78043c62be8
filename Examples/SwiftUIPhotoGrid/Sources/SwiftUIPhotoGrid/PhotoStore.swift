// The example's photos and their pipeline: bytes from the feed server
// (LOOKAHEAD_FEED_URL, by default `lookahead serve` on 127.0.0.1:8080), kept
// on disk, decoded off the main thread for the cells' pixels.

#if canImport(UIKit)
import Foundation
import Lookahead
import LookaheadImages
import LookaheadURLSession
import UIKit

/// One photo of the grid.
public struct Photo: Identifiable, Hashable, Sendable {
    public let id: Int
}

/// The grid's photos, and the pipeline every cell and prefetch shares.
@MainActor
public final class PhotoStore {
    /// The photos, in grid order.
    public let photos = (0..<5_000).map(Photo.init(id:))
    public let pipeline: ThumbnailPipeline<Photo.ID, UIImage>

    public init() {
        let server = URL(string: ProcessInfo.processInfo.environment["LOOKAHEAD_FEED_URL"] ?? "http://127.0.0.1:8080")!
        let loader = URLSessionLoader()
        pipeline = ThumbnailPipeline(
            diskCache: try! DiskCache(directory: NSTemporaryDirectory() + "photo-grid"),
            size: ThumbnailSize(width: 130, height: 130, scale: 3)
        ) { id, context in
            Array(try await loader.data(from: server.appending(path: "v0/image/\(id)"), context: context))
        }
    }
}
#endif
