// The POSIX calls the disk cache makes, wrapped so that each one reports
// failures as a typed error carrying `errno`. No Foundation: the cache's
// interface is paths and bytes, and its files are opened without following
// symbolic links.

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An error a system call returned: its `errno` and what the system calls it.
public struct DiskCacheSystemError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The `errno` value.
    public let code: Int32

    init(code: Int32) {
        self.code = code
    }

    /// The current `errno`.
    static var current: Self { Self(code: errno) }

    /// `strerror`'s text for the code, and the code.
    public var description: String {
        "\(String(cString: strerror(code))) (errno \(code))"
    }

    /// Whether the file or a directory on its path does not exist.
    var isNoSuchFile: Bool { code == ENOENT }
}

/// What `lstat` says about a path.
struct DiskCacheFileStatus {
    enum Kind {
        case regularFile, directory, symbolicLink, other
    }

    var kind: Kind
    var size: Int
    /// The modification time, in nanoseconds since 1970.
    var modified: Int64
}

/// The cache's file system operations, on paths, without following symbolic links.
enum DiskCacheFileSystem {
    /// Returns what `path` is, without following a symbolic link there.
    static func status(_ path: String) throws(DiskCacheSystemError) -> DiskCacheFileStatus {
        var status = stat()
        guard lstat(path, &status) == 0 else { throw .current }
        let kind: DiskCacheFileStatus.Kind
        switch status.st_mode & S_IFMT {
        case S_IFREG: kind = .regularFile
        case S_IFDIR: kind = .directory
        case S_IFLNK: kind = .symbolicLink
        default: kind = .other
        }
        #if canImport(Darwin)
        let time = status.st_mtimespec
        #else
        let time = status.st_mtim
        #endif
        return DiskCacheFileStatus(
            kind: kind, size: Int(status.st_size), modified: Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec))
    }

    /// Returns whether a regular file exists at `path`.
    static func isRegularFile(_ path: String) -> Bool {
        (try? status(path))?.kind == .regularFile
    }

    /// Creates `path` and any missing parents, each readable, writable and
    /// searchable by its owner only.
    static func makeDirectory(_ path: String) throws(DiskCacheSystemError) {
        if mkdir(path, 0o700) == 0 { return }
        let error = DiskCacheSystemError.current
        switch error.code {
        case EEXIST:
            return
        case ENOENT:
            let parent = parentPath(of: path)
            guard !parent.isEmpty, parent != path else { throw error }
            try makeDirectory(parent)
            guard mkdir(path, 0o700) == 0 || errno == EEXIST else { throw .current }
        default:
            throw error
        }
    }

    private static func parentPath(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        let parent = trimmed[..<slash]
        return parent.isEmpty ? "/" : String(parent)
    }

    /// Returns the names in the directory at `path`, except `.` and `..`.
    static func contentsOfDirectory(_ path: String) throws(DiskCacheSystemError) -> [String] {
        guard let directory = opendir(path) else { throw .current }
        defer { closedir(directory) }
        var names: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(directory) else {
                if errno != 0 { throw .current }
                return names
            }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(cString: bytes.baseAddress!.assumingMemoryBound(to: CChar.self))
            }
            if name != "." && name != ".." { names.append(name) }
        }
    }

    /// Returns the contents of the regular file at `path`.
    static func readFile(_ path: String) throws(DiskCacheSystemError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else { throw .current }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .current }
        guard status.st_mode & S_IFMT == S_IFREG else { throw DiskCacheSystemError(code: EINVAL) }
        // Read to the end rather than trusting the size: a file may change length.
        var bytes = [UInt8](repeating: 0, count: max(Int(status.st_size), 0) + 1)
        var filled = 0
        while true {
            if filled == bytes.count { bytes.append(contentsOf: repeatElement(0, count: max(bytes.count, 4096))) }
            let count = bytes.withUnsafeMutableBytes { buffer in
                read(descriptor, buffer.baseAddress! + filled, buffer.count - filled)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw .current
            }
            if count == 0 { break }
            filled += count
        }
        bytes.removeSubrange(filled...)
        return bytes
    }

    /// Writes `chunks` to a new file at `path`, readable and writable by its
    /// owner only; fails if anything exists there.
    static func writeNewFile(_ path: String, _ chunks: [UnsafeRawBufferPointer]) throws(DiskCacheSystemError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw .current }
        var failure: DiskCacheSystemError?
        write: for chunk in chunks {
            var written = 0
            while written < chunk.count {
                let count = systemWrite(descriptor, chunk.baseAddress! + written, chunk.count - written)
                if count < 0 {
                    if errno == EINTR { continue }
                    failure = .current
                    break write
                }
                written += count
            }
        }
        if close(descriptor) != 0, failure == nil { failure = .current }
        if let failure { throw failure }
    }

    /// Renames `source` over `destination`, atomically replacing it.
    static func rename(_ source: String, to destination: String) throws(DiskCacheSystemError) {
        guard systemRename(source, destination) == 0 else { throw .current }
    }

    /// Deletes the file at `path`; one that is already gone is not an error.
    static func removeFile(_ path: String) throws(DiskCacheSystemError) {
        guard unlink(path) == 0 || errno == ENOENT else { throw .current }
    }

    /// Sets the modification time of the file at `path` to now. Best effort.
    static func touch(_ path: String) {
        _ = utimes(path, nil)
    }

    /// The current wall-clock time in nanoseconds since 1970, to compare with
    /// file modification times.
    static func wallClockNow() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }

    /// This process's identifier.
    static var processIdentifier: Int32 { getpid() }

    /// Whether a process with identifier `pid` exists (it may belong to
    /// another user: `EPERM` still means it exists).
    static func isProcessAlive(_ pid: Int32) -> Bool {
        guard pid > 0 else { return false }
        return kill(pid, 0) == 0 || errno == EPERM
    }
}

// The C functions whose names the wrappers above reuse.
#if canImport(Darwin)
private let systemWrite = Darwin.write
private let systemRename = Darwin.rename
#elseif canImport(Glibc)
private let systemWrite = Glibc.write
private let systemRename = Glibc.rename
#elseif canImport(Musl)
private let systemWrite = Musl.write
private let systemRename = Musl.rename
#endif
