// Why bytes did not make an image: not an image format the decoder reads,
// or one it could not make a thumbnail of. Not transient: loading the same
// bytes again would fail again.

/// Why the bytes of an image could not be decoded.
public enum ImageDecodingError: Error, Sendable, Equatable {
    /// The bytes are no image the decoder can read.
    case unreadable(byteCount: Int)
    /// The decoder read the bytes but made no image of them.
    case noImage
}
