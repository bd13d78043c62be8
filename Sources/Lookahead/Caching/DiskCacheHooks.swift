// Test and torture hooks of `DiskCache`: called around its file system work,
// so a test can hold an operation there (behind a gate) and check what other
// threads can do meanwhile, and a torture run can log what a sweep evicted.

/// Calls a ``DiskCache`` makes around its file system operations.
///
/// Test-only: `package`, and every hook defaults to doing nothing. Hooks are
/// called without the cache's lock held.
package struct DiskCacheHooks: Sendable {
    /// Called with an entry's file path just before the file is read.
    package var willReadFile: @Sendable (String) -> Void
    /// Called with a file path just before the file is deleted.
    package var willRemoveFile: @Sendable (String) -> Void
    /// Called with the file names (key digests in hex) of the entries a sweep
    /// evicted, once they are out of the index and before their files are
    /// deleted; the store that swept has not returned yet.
    package var didSweep: @Sendable ([String]) -> Void

    package init(
        willReadFile: @escaping @Sendable (String) -> Void = { _ in },
        willRemoveFile: @escaping @Sendable (String) -> Void = { _ in },
        didSweep: @escaping @Sendable ([String]) -> Void = { _ in }
    ) {
        self.willReadFile = willReadFile
        self.willRemoveFile = willRemoveFile
        self.didSweep = didSweep
    }
}
