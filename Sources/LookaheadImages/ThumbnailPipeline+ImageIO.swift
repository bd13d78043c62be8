// The decoder for Apple platforms: ImageIO's thumbnail path, which decodes
// straight to the cell's pixel size, and decodes now, off the main thread —
// not when the image is first drawn, on it (WWDC 2018, "Images and Graphics
// Best Practices"). Compiled only where UIKit and ImageIO exist.

#if canImport(UIKit) && canImport(ImageIO) && !os(watchOS)
import Foundation
import ImageIO
public import Lookahead
public import UIKit

extension ThumbnailPipeline where Image == UIImage {
    /// Creates a pipeline that decodes images for cells of `size` with
    /// ImageIO's thumbnail path, a decode per core at once.
    ///
    /// ```swift
    /// let loader = URLSessionLoader()
    /// let photos = try ThumbnailPipeline<URL, UIImage>(
    ///     diskCache: DiskCache(directory: thumbnailsPath),
    ///     size: ThumbnailSize(width: 120, height: 120, scale: 3)
    /// ) { url, context in Array(try await loader.data(from: url, context: context)) }
    /// ```
    ///
    /// - Parameters:
    ///   - diskCache: where the bytes are kept.
    ///   - size: the cells' size, which the images are decoded for.
    ///   - memoryBudget: the most decoded bytes kept in memory.
    ///   - maxConcurrentLoads: the most loads at once.
    ///   - fetchData: the bytes of a key.
    public convenience init(
        diskCache: DiskCache,
        size: ThumbnailSize,
        memoryBudget: Int = MemoryCache<Key, DecodedImage<UIImage>>.defaultCostLimit,
        maxConcurrentLoads: Int = 6,
        fetchData: @escaping @Sendable (Key, LoadContext) async throws -> [UInt8]
    ) {
        let maxPixelSize = size.maxPixelSize
        self.init(
            diskCache: diskCache, memoryBudget: memoryBudget, maxConcurrentLoads: maxConcurrentLoads,
            decodeSlots: max(1, ProcessInfo.processInfo.activeProcessorCount), fetchData: fetchData
        ) { bytes in
            try ThumbnailDecoder.decode(bytes, maxPixelSize: maxPixelSize)
        }
    }
}

/// ImageIO's thumbnail path.
enum ThumbnailDecoder {
    /// `bytes` decoded to at most `maxPixelSize` pixels on the longer side,
    /// oriented, its bitmap made now.
    static func decode(_ bytes: [UInt8], maxPixelSize: Int) throws -> DecodedImage<UIImage> {
        // The source keeps no decoded copy of its own: the thumbnail is the one we keep.
        let sourceOptions = [kCGImageSourceShouldCache: false] as CFDictionary
        guard let source = CGImageSourceCreateWithData(Data(bytes) as CFData, sourceOptions) else {
            throw ImageDecodingError.unreadable(byteCount: bytes.count)
        }
        let options =
            [
                kCGImageSourceCreateThumbnailFromImageAlways: true,
                kCGImageSourceShouldCacheImmediately: true,
                kCGImageSourceCreateThumbnailWithTransform: true,
                kCGImageSourceThumbnailMaxPixelSize: maxPixelSize,
            ] as [CFString: Any] as CFDictionary
        guard let image = CGImageSourceCreateThumbnailAtIndex(source, 0, options) else {
            throw ImageDecodingError.noImage
        }
        return DecodedImage(
            image: UIImage(cgImage: image), pixelWidth: image.width, pixelHeight: image.height,
            bytesPerRow: image.bytesPerRow)
    }
}
#endif
