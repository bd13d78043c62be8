// A decoded image and what it really costs in memory: its pixels, bytes
// per row times rows — not one entry of a cache's count, whatever its size.

public import Lookahead

/// A decoded image, and the bytes its pixels keep alive.
///
/// A memory cache of them holds a byte budget (``MemoryCache`` reads
/// ``memoryCost``): a grid of full-size photos cannot grow it past the
/// budget the way a count of entries would (a 4,000 × 3,000 photo decoded is
/// 48 MB; a thumbnail for a 120-point cell at 3× is 0.5 MB).
public struct DecodedImage<Image: Sendable>: Sendable, MemoryCostReporting {
    /// The image, ready to draw.
    public let image: Image
    /// Its size in pixels.
    public let pixelWidth: Int
    public let pixelHeight: Int
    /// The bytes of one row of its bitmap (padding included).
    public let bytesPerRow: Int

    /// Wraps `image` of `pixelWidth` × `pixelHeight` pixels, `bytesPerRow`
    /// bytes a row (4 × width for 8-bit RGBA, if you do not know better).
    ///
    /// - Precondition: the sizes are not negative.
    public init(image: Image, pixelWidth: Int, pixelHeight: Int, bytesPerRow: Int) {
        precondition(
            pixelWidth >= 0 && pixelHeight >= 0 && bytesPerRow >= 0,
            "DecodedImage: sizes must not be negative, got \(pixelWidth) × \(pixelHeight), \(bytesPerRow) bytes a row")
        self.image = image
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.bytesPerRow = bytesPerRow
    }

    /// The bitmap's bytes: `bytesPerRow × pixelHeight`.
    public var memoryCost: Int { bytesPerRow * pixelHeight }
}

/// How big to decode an image for a cell: the cell's size in points times
/// the screen's scale, the longer side at most — what ImageIO's thumbnail
/// path takes as `kCGImageSourceThumbnailMaxPixelSize`.
public struct ThumbnailSize: Sendable, Hashable {
    /// The longer side of the decoded image, in pixels.
    public let maxPixelSize: Int

    /// A thumbnail for a cell `width` × `height` points on a screen of `scale` pixels a point.
    ///
    /// - Precondition: the sizes are finite and greater than 0.
    public init(width: Double, height: Double, scale: Double) {
        precondition(
            width.isFinite && height.isFinite && scale.isFinite && width > 0 && height > 0 && scale > 0,
            "ThumbnailSize: sizes and scale must be finite and greater than 0, got \(width) × \(height) @\(scale)x")
        maxPixelSize = Int((max(width, height) * scale).rounded(.up))
    }

    /// A thumbnail whose longer side is `maxPixelSize` pixels.
    ///
    /// - Precondition: `maxPixelSize` is at least 1.
    public init(maxPixelSize: Int) {
        precondition(maxPixelSize >= 1, "ThumbnailSize: maxPixelSize must be at least 1, got \(maxPixelSize)")
        self.maxPixelSize = maxPixelSize
    }
}
