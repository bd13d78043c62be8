import Foundation

// Heavy synchronous tests (whole simulations, the oracle, brute force) run on
// a thread of their own instead of one of the cooperative pool's.

/// Runs `body` — the test's own task, so its expectations are recorded as
/// usual — on a thread of its own, outside the cooperative pool.
///
/// A test that simulates for tens of seconds without suspending holds one of
/// the pool's threads (two on a two-core machine) the whole time: every other
/// suite's tasks wait behind it, the loopback servers' handlers and the time
/// limits' timers included, and tests that run in real time fail for want of
/// a thread, not for a bug. On its own thread the work shares the cores with
/// them through the kernel.
func onOwnThread<T, Failure: Error>(_ body: () async throws(Failure) -> T) async throws(Failure) -> T {
    guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *) else { return try await body() }
    let executor = ThreadTaskExecutor()
    defer { executor.stop() }
    return try await withTaskExecutorPreference(executor, operation: body)
}

/// A task executor with one thread that runs its jobs in order until stopped.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
final class ThreadTaskExecutor: TaskExecutor, @unchecked Sendable {
    /// The key its thread sets to `true` in its `threadDictionary`.
    static let marker = "ThreadTaskExecutor"

    // Guarded by `condition`.
    private var jobs: [UnownedJob] = []
    private var stopped = false
    private let condition = NSCondition()

    init() {
        let thread = Thread { [self] in runJobs() }
        thread.stackSize = 16 << 20
        thread.start()
    }

    func enqueue(_ job: UnownedJob) {
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Lets the thread end once the jobs already enqueued have run.
    func stop() {
        condition.lock()
        stopped = true
        condition.signal()
        condition.unlock()
    }

    private func runJobs() {
        Thread.current.threadDictionary[Self.marker] = true
        while true {
            condition.lock()
            while jobs.isEmpty && !stopped { condition.wait() }
            if jobs.isEmpty {
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
