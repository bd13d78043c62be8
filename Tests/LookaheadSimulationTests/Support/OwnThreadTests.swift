import Foundation
import Testing

/// `onOwnThread` runs the test's body off the cooperative pool, and what the
/// body expects is recorded against the test as usual.
@Suite(.timeLimit(.minutes(1)))
struct OwnThreadTests {
    @Test func theBodyRunsOnAThreadOfItsOwn() async {
        #expect(await onOwnThread { onAnExecutorsThread() })
        #expect(!onAnExecutorsThread())
    }

    @Test func anExpectationFailingOnItsOwnThreadFailsTheTest() async {
        await withKnownIssue {
            await onOwnThread { #expect(1 + 1 == 3) }
        }
    }

    @Test func aValueAndAnErrorComeBack() async throws {
        struct Failure: Error {}
        #expect(await onOwnThread { 6 * 7 } == 42)
        await #expect(throws: Failure.self) { try await onOwnThread { () throws(Failure) in throw Failure() } }
    }
}

/// Whether the caller runs on a `ThreadTaskExecutor`'s thread (a synchronous
/// function: async code may not ask for the current thread).
private func onAnExecutorsThread() -> Bool {
    guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *) else { return false }
    return Thread.current.threadDictionary[ThreadTaskExecutor.marker] as? Bool == true
}
