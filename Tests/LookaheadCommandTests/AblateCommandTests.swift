#if Tools
import ArgumentParser
import Testing

@testable import lookahead

/// `lookahead ablate` refuses what it cannot run, naming the option.
@Suite(.timeLimit(.minutes(1)))
struct AblateCommandTests {
    @Test(arguments: [
        (["--seeds", "0"], "--seeds must be in 1...100"),
        (["--seeds", "101"], "--seeds must be in 1...100"),
        (["--first-seed", "0"], "--first-seed must be in 1...1000000"),
        (["--scenario", "bogus"], "--scenario: unknown scenario bogus"),
    ])
    func refusesOutOfRange(arguments: [String], expected: String) {
        var message: String?
        do {
            _ = try AblateCommand.parseAsRoot(arguments)
        } catch {
            message = AblateCommand.message(for: error)
        }
        #expect(message?.contains(expected) == true, "\(arguments): \(message ?? "accepted")")
    }

    @Test func acceptsTheLimits() throws {
        _ = try AblateCommand.parseAsRoot(["--first-seed", "1000000", "--seeds", "100", "--scenario", "feed"])
    }
}
#endif
