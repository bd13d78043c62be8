@testable import Lookahead

/// The tests' seeded generator: the project's one ``SplitMix64``, so a failing
/// seed replays exactly.
typealias SeededRandom = SplitMix64

extension SplitMix64 {
    /// A number in `0..<bound`.
    mutating func next(below bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }

    /// Whether an event of probability `probability` happened.
    mutating func chance(_ probability: Double) -> Bool {
        Double.random(in: 0..<1, using: &self) < probability
    }
}
