package import Testing

// The time limit of the suites whose tests run on the main actor.

extension Trait where Self == TimeLimitTrait {
    /// The time limit of a `@MainActor` suite (the headless views, the
    /// coordinators, main-actor deliveries): five minutes.
    ///
    /// Every `@MainActor` test of the run shares the main thread, and a test
    /// without a suspension point holds it until it ends; under
    /// ThreadSanitizer on a slow two-core machine they add up to 50–90 s, and
    /// any of them may wait behind all the others (one was seen polling three
    /// times in 46 s; with a build running beside, suites of 1-minute limits
    /// timed out). A ceiling that catches a hang, not a measure of speed:
    /// tests wait for what they expect (see `waitUntil`), never for a
    /// wall-clock time of their own.
    package static var queuedOnTheMainActor: Self { .timeLimit(.minutes(5)) }
}
