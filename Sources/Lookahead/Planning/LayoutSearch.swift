/// Binary searches over integer ranges, for the layouts.
enum LayoutSearch {
    /// The first index of `range` for which `isInSecondPart` holds, or
    /// `range.upperBound`; `isInSecondPart` must be false, then true, over `range`.
    ///
    /// - Complexity: O(log n) calls to `isInSecondPart`.
    static func partitionPoint(in range: Range<Int>, where isInSecondPart: (Int) -> Bool) -> Int {
        var low = range.lowerBound
        var high = range.upperBound
        while low < high {
            let middle = low + (high - low) / 2
            if isInSecondPart(middle) { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// The same search, given a guess computed by division: when the partition
    /// point lies within two of `guess` it costs O(1), otherwise (a guess thrown
    /// off by rounding or a division by 0) it falls back to the binary search.
    ///
    /// The guess only saves time; the exact predicate decides the answer, so
    /// the result never depends on how the guess was rounded.
    static func partitionPoint(
        in range: Range<Int>, near guess: Double, where isInSecondPart: (Int) -> Bool
    ) -> Int {
        guard guess.isFinite else { return partitionPoint(in: range, where: isInSecondPart) }
        let clamped = min(max(guess.rounded(.down), Double(range.lowerBound)), Double(range.upperBound))
        let center = Int(clamped)
        let low = max(range.lowerBound, center - 2)
        let high = min(range.upperBound, center + 2)
        let startsBefore = low == range.lowerBound || !isInSecondPart(low - 1)
        let endsAfter = high == range.upperBound || isInSecondPart(high)
        guard startsBefore && endsAfter else { return partitionPoint(in: range, where: isInSecondPart) }
        return partitionPoint(in: low..<high, where: isInSecondPart)
    }
}
