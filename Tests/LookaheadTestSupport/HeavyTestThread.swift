import Foundation
package import Testing

// Heavy synchronous tests (whole simulations, the oracle, brute force, the
// long randomized comparisons with reference models) run on one thread of
// their own, one after another, instead of on the cooperative pool's threads.
// One thread for the whole test process: every test target that has heavy
// tests uses this module, so that together they take at most one core.

/// Runs `body` — the test's own task, so its expectations are recorded as
/// usual — on the one thread kept for heavy tests, outside the cooperative
/// pool, after the heavy tests already waiting for it.
///
/// A test that simulates for tens of seconds without suspending holds one of
/// the pool's threads (two on a two-core machine) the whole time; two such
/// tests hold both, and every other suite's tasks wait behind them — the
/// loopback servers' handlers and the torture's fetchers included — until
/// tests that run in real time fail for want of a thread, not for a bug. A
/// thread for each heavy test is no better: thirty threads busy at once leave
/// the pool a fifteenth of the cores. On one thread, heavy tests take at most
/// one core, and the pool keeps the other. A suite using it gives its tests
/// the time limit ``Testing/Trait/queuedOnTheHeavyTestThread``: long enough to
/// wait for the others (they queue).
package func onHeavyTestThread<T, Failure: Error>(_ body: () async throws(Failure) -> T) async throws(Failure) -> T {
    guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *) else { return try await body() }
    return try await withTaskExecutorPreference(ThreadTaskExecutor.heavyTests, operation: body)
}

/// A task executor with one thread that runs its jobs in order.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
package final class ThreadTaskExecutor: TaskExecutor, @unchecked Sendable {
    /// The thread the heavy tests share, for the life of the test process.
    package static let heavyTests = ThreadTaskExecutor()

    /// The key its thread sets to `true` in its `threadDictionary`.
    package static let marker = "ThreadTaskExecutor"

    // Guarded by `condition`.
    private var jobs: [UnownedJob] = []
    private let condition = NSCondition()

    private init() {
        let thread = Thread { [self] in runJobs() }
        thread.stackSize = 16 << 20
        thread.start()
    }

    package func enqueue(_ job: UnownedJob) {
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func runJobs() {
        Thread.current.threadDictionary[Self.marker] = true
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}

extension Trait where Self == TimeLimitTrait {
    /// The time limit of a suite whose tests run on the heavy tests' thread:
    /// ten minutes, for each waits there behind the heavy tests of every
    /// target (four to five minutes of them in all on a slow two-core
    /// machine, in a debug build). A ceiling that catches a hang, not a
    /// measure of speed.
    package static var queuedOnTheHeavyTestThread: Self { .timeLimit(.minutes(10)) }
}
