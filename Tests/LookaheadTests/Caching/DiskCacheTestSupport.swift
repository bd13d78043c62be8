// Foundation conveniences for the disk cache's tests: the cache itself takes
// paths and bytes, the tests build them from URLs.

import Foundation

@testable import Lookahead

extension DiskCache {
    /// Opens a cache in the directory at `directory`, a file URL.
    convenience init(
        directory: URL, sizeLimit: Int = 100 * 1024 * 1024, trimRatio: Double = 0.8,
        hooks: DiskCacheHooks = DiskCacheHooks()
    ) throws {
        try self.init(
            directory: directory.path(percentEncoded: false), sizeLimit: sizeLimit, trimRatio: trimRatio, hooks: hooks)
    }

    /// The file that holds, or would hold, the entry for `key`.
    func fileURL(forKey key: String) -> URL {
        URL(filePath: filePath(forKey: key))
    }
}
