// The package's one lock, over pthread_mutex_t, and a value behind it.

#if canImport(Darwin)
public import Darwin
#elseif canImport(Glibc)
public import Glibc
#elseif canImport(Musl)
public import Musl
#else
#error("Lock needs pthread_mutex_t")
#endif

/// A mutual-exclusion lock over `pthread_mutex_t`.
///
/// Not `Synchronization.Mutex`: on Linux ThreadSanitizer does not see that type's
/// atomics and reports false races, so a sanitizer run over code guarded by it
/// proves nothing. A `pthread_mutex_t` is understood by every sanitizer.
///
/// The mutex lives in its own heap allocation so that its address never moves
/// (POSIX forbids copying a mutex).
@usableFromInline
package final class Lock: @unchecked Sendable {
    @usableFromInline
    let mutex: UnsafeMutablePointer<pthread_mutex_t>

    package init() {
        mutex = .allocate(capacity: 1)
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        #if DEBUG
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ERRORCHECK))
        #elseif canImport(Glibc)
        // Spin briefly before sleeping: critical sections here are short,
        // and a futex sleep and wake costs more than the wait it avoids.
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ADAPTIVE_NP))
        #endif
        let result = pthread_mutex_init(mutex, &attributes)
        precondition(result == 0, "pthread_mutex_init failed: \(result)")
        pthread_mutexattr_destroy(&attributes)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    @inlinable
    package func lock() {
        let result = pthread_mutex_lock(mutex)
        assert(result == 0, "pthread_mutex_lock failed: \(result)")
    }

    @inlinable
    package func unlock() {
        let result = pthread_mutex_unlock(mutex)
        assert(result == 0, "pthread_mutex_unlock failed: \(result)")
    }

    /// Runs `body` with the lock held.
    @inlinable
    package func withLock<Result, Failure: Error>(
        _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// A value that is only ever read or written with its `Lock` held.
///
/// This is the project's one `@unchecked Sendable` state container: the lock is
/// what makes it safe, and every access goes through `withLock`.
@usableFromInline
package final class LockedValue<Value>: @unchecked Sendable {
    @usableFromInline
    let lock = Lock()
    /// Only touched with `lock` held, which already guarantees exclusive
    /// access: the runtime's dynamic exclusivity check would only add cost.
    @exclusivity(unchecked) @usableFromInline
    var value: Value

    @inlinable
    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` on the value with the lock held.
    @inlinable
    package func withLock<Result, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
