// Opening a disk cache's directory: checking it, creating it, and rebuilding
// the index from the files found there, deleting what crashed writers left.

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension DiskCache {
    /// Temporary files older than this are deleted even if a process with
    /// their writer's identifier exists: identifiers are reused, and no write
    /// takes a day.
    static let staleTemporaryFileAge: Int64 = 24 * 60 * 60 * 1_000_000_000

    struct Scan {
        /// The entries found, least recently modified first.
        var entries: [(digest: SHA256.Digest, size: Int)] = []
        var corruptedEntriesDropped = 0
    }

    /// `path` without trailing slashes, which would make `lstat` follow a
    /// symbolic link; `/` stays `/`.
    static func withoutTrailingSlashes(_ path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        return String(trimmed)
    }

    /// Creates `directory` with owner-only permissions if it does not exist,
    /// and checks that it is a directory and not a symbolic link.
    static func prepareDirectory(_ directory: String) throws(DiskCacheError) {
        do {
            switch try DiskCacheFileSystem.status(directory).kind {
            case .directory: return
            case .symbolicLink: throw DiskCacheError.symbolicLink(path: directory)
            case .regularFile, .other: throw DiskCacheError.notADirectory(path: directory)
            }
        } catch let error as DiskCacheError {
            throw error
        } catch let error as DiskCacheSystemError where error.isNoSuchFile || error.code == ENOTDIR {
            do {
                try DiskCacheFileSystem.makeDirectory(directory)
            } catch {
                throw .cannotCreateDirectory(path: directory, underlyingError: error)
            }
        } catch {
            throw .cannotReadDirectory(path: directory, underlyingError: error)
        }
    }

    /// Lists the entries in `directory`, least recently modified first, deleting
    /// stale temporary files and files too short to hold an entry on the way.
    static func scanDirectory(_ directory: String) throws(DiskCacheError) -> Scan {
        let names: [String]
        do {
            names = try DiskCacheFileSystem.contentsOfDirectory(directory)
        } catch {
            throw .cannotReadDirectory(path: directory, underlyingError: error)
        }
        let now = DiskCacheFileSystem.wallClockNow()
        var scan = Scan()
        var found: [(digest: SHA256.Digest, size: Int, modified: Int64)] = []
        for name in names {
            let path = "\(directory)/\(name)"
            if name.hasPrefix(temporaryPrefix) {
                if let status = try? DiskCacheFileSystem.status(path),
                    isStaleTemporaryFile(named: name, modified: status.modified, now: now)
                {
                    try? DiskCacheFileSystem.removeFile(path)
                }
                continue
            }
            guard let digest = SHA256.Digest(hexString: name),
                let status = try? DiskCacheFileSystem.status(path), status.kind == .regularFile
            else { continue }
            guard status.size >= DiskCacheEntryFormat.headerSize else {
                try? DiskCacheFileSystem.removeFile(path)
                scan.corruptedEntriesDropped += 1
                continue
            }
            found.append((digest, status.size, status.modified))
        }
        // Ties (timestamps are coarse) are broken by name, so the order is deterministic.
        found.sort { ($0.modified, $0.digest.hexString) < ($1.modified, $1.digest.hexString) }
        scan.entries = found.map { ($0.digest, $0.size) }
        return scan
    }

    /// Whether the temporary file `name`, last modified at `modified`, was left
    /// by a writer that is gone: its name holds no process identifier (an
    /// older format), that process does not exist, or the file is a day old.
    static func isStaleTemporaryFile(named name: String, modified: Int64, now: Int64) -> Bool {
        let fields = name.dropFirst(temporaryPrefix.count).split(separator: "-", maxSplits: 1)
        guard let first = fields.first, let pid = Int32(first), pid > 0 else { return true }
        return now - modified > staleTemporaryFileAge || !DiskCacheFileSystem.isProcessAlive(pid)
    }
}
