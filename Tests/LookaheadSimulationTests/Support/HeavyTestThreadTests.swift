import Foundation
import LookaheadTestSupport
import Testing

/// `onHeavyTestThread` runs the test's body off the cooperative pool, and what the
/// body expects is recorded against the test as usual. (The heavy tests' time
/// limit: these wait for the heavy tests queued on the thread before them.)
@Suite(.queuedOnTheHeavyTestThread)
struct HeavyTestThreadTests {
    @Test func theBodyRunsOnAThreadOfItsOwn() async {
        #expect(await onHeavyTestThread { onAnExecutorsThread() })
        #expect(!onAnExecutorsThread())
    }

    @Test func anExpectationFailingOnItsOwnThreadFailsTheTest() async {
        await withKnownIssue {
            await onHeavyTestThread { #expect(1 + 1 == 3) }
        }
    }

    @Test func aValueAndAnErrorComeBack() async throws {
        struct Failure: Error {}
        #expect(await onHeavyTestThread { 6 * 7 } == 42)
        await #expect(throws: Failure.self) { try await onHeavyTestThread { () throws(Failure) in throw Failure() } }
    }
}

/// Whether the caller runs on a `ThreadTaskExecutor`'s thread (a synchronous
/// function: async code may not ask for the current thread).
private func onAnExecutorsThread() -> Bool {
    guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *) else { return false }
    return Thread.current.threadDictionary[ThreadTaskExecutor.marker] as? Bool == true
}
