// The errors a disk cache throws, each naming the path or the argument at fault.

/// An error from a ``DiskCache``: which operation failed, on which path, and
/// the error the system reported (a ``DiskCacheSystemError``), or which
/// argument was out of range.
///
/// File system failures (a full disk, a permission denied, an I/O error, a
/// directory removed from under the cache) are thrown as these, never trapped
/// on. Reads never throw: a file that cannot be read is a miss.
public enum DiskCacheError: Error, CustomStringConvertible {
    /// The size limit is negative.
    case invalidSizeLimit(Int)
    /// The trim ratio is not a number in `0...1`.
    case invalidTrimRatio(Double)
    /// The cache's directory is a symbolic link, which the cache refuses: the
    /// link could be pointed elsewhere behind its back.
    case symbolicLink(path: String)
    /// The cache's directory exists but is not a directory.
    case notADirectory(path: String)
    /// The cache's directory could not be created.
    case cannotCreateDirectory(path: String, underlyingError: any Error)
    /// The cache's directory could not be listed.
    case cannotReadDirectory(path: String, underlyingError: any Error)
    /// An entry could not be written or moved into place, for example because
    /// the disk is full. The entry was not stored; any earlier entry for the key
    /// is still there.
    case cannotWrite(path: String, underlyingError: any Error)
    /// A file could not be deleted.
    case cannotRemove(path: String, underlyingError: any Error)
    /// The entry's file (payload and header) would be larger than the cache's
    /// size limit, so it was not stored.
    case entryTooLarge(size: Int, sizeLimit: Int)

    /// The path the failed operation was on, if it was on one.
    public var path: String? {
        switch self {
        case .symbolicLink(let path), .notADirectory(let path), .cannotCreateDirectory(let path, _),
            .cannotReadDirectory(let path, _),
            .cannotWrite(let path, _), .cannotRemove(let path, _):
            path
        case .invalidSizeLimit, .invalidTrimRatio, .entryTooLarge:
            nil
        }
    }

    /// The error the system reported, if there was one.
    public var underlyingError: (any Error)? {
        switch self {
        case .cannotCreateDirectory(_, let error), .cannotReadDirectory(_, let error), .cannotWrite(_, let error),
            .cannotRemove(_, let error):
            error
        case .invalidSizeLimit, .invalidTrimRatio, .symbolicLink, .notADirectory, .entryTooLarge:
            nil
        }
    }

    /// What went wrong, naming the path or argument.
    public var description: String {
        switch self {
        case .invalidSizeLimit(let limit):
            "DiskCache: sizeLimit must be at least 0 bytes, got \(limit)"
        case .invalidTrimRatio(let ratio):
            "DiskCache: trimRatio must be between 0 and 1, got \(ratio)"
        case .symbolicLink(let path):
            "DiskCache: \(path) is a symbolic link; give the cache the path of a real directory"
        case .notADirectory(let path):
            "DiskCache: \(path) exists and is not a directory"
        case .cannotCreateDirectory(let path, let error):
            "DiskCache: cannot create the directory \(path): \(error)"
        case .cannotReadDirectory(let path, let error):
            "DiskCache: cannot list the directory \(path): \(error)"
        case .cannotWrite(let path, let error):
            "DiskCache: cannot write \(path): \(error)"
        case .cannotRemove(let path, let error):
            "DiskCache: cannot remove \(path): \(error)"
        case .entryTooLarge(let size, let sizeLimit):
            "DiskCache: an entry of \(size) bytes (header included) exceeds the size limit of \(sizeLimit) bytes"
        }
    }
}
