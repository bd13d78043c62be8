import Testing

@testable import Lookahead

@Suite(.timeLimit(.minutes(1)))
struct ListLayoutTests {
    /// Rows of 44, 60 and 30; an empty section; rows of 100 and 20; 10 between sections.
    let mixed = ListLayout(width: 390, heights: [[44, 60, 30], [], [100, 20]], sectionSpacing: 10)

    // MARK: - Hand-checked layouts

    @Test func rowsWithTheirOwnHeightsStackSectionBySection() {
        // Given the mixed list
        // When its frames are read
        // Then rows touch within a section, and each section starts 10 below the one before,
        // the empty one included (its top is 144, so the next one starts at 154)
        #expect(mixed.frame(at: ItemPath(row: 0, section: 0)) == Rect(x: 0, y: 0, width: 390, height: 44))
        #expect(mixed.frame(at: ItemPath(row: 1, section: 0)) == Rect(x: 0, y: 44, width: 390, height: 60))
        #expect(mixed.frame(at: ItemPath(row: 2, section: 0)) == Rect(x: 0, y: 104, width: 390, height: 30))
        #expect(mixed.frame(at: ItemPath(row: 0, section: 2)) == Rect(x: 0, y: 154, width: 390, height: 100))
        #expect(mixed.frame(at: ItemPath(row: 1, section: 2)) == Rect(x: 0, y: 254, width: 390, height: 20))
        #expect(mixed.contentSize == Size(width: 390, height: 274))
        #expect(mixed.numberOfSections == 3)
        #expect([0, 1, 2].map(mixed.numberOfItems(inSection:)) == [3, 0, 2])
        #expect(mixed.totalItemCount == 5)
        #expect(mixed.columns == 1)
    }

    @Test func aRectFindsTheRowsItIntersects() {
        // Given the mixed list
        // When a rect spans the end of section 0, the spacing and the start of section 2
        let paths = mixed.itemPaths(in: Rect(x: 0, y: 100, width: 390, height: 60))

        // Then the rows partly inside it are found too, across the empty section
        #expect(paths == [ItemPath(row: 1, section: 0), ItemPath(row: 2, section: 0), ItemPath(row: 0, section: 2)])
        #expect(mixed.itemPaths(in: Rect(x: 0, y: 0, width: 390, height: 274)).count == 5)
        // A thin rect at one side of the rows still intersects them
        #expect(
            mixed.itemPaths(in: Rect(x: 389, y: 0, width: 10, height: 50))
                == [ItemPath(row: 0, section: 0), ItemPath(row: 1, section: 0)])
    }

    @Test func touchingEdgesDoNotCount() {
        // Given the mixed list
        // When a rect covers exactly row 1 of section 0 (44..<104)
        let paths = mixed.itemPaths(in: Rect(x: 0, y: 44, width: 390, height: 60))

        // Then the rows touching it above and below are left out
        #expect(paths == [ItemPath(row: 1, section: 0)])
        // and so are rows beside a rect that touches the content's sides
        #expect(mixed.itemPaths(in: Rect(x: 390, y: 0, width: 10, height: 300)).isEmpty)
        #expect(mixed.itemPaths(in: Rect(x: -10, y: 0, width: 10, height: 300)).isEmpty)
        // and the rows around the spacing between sections 0 and 2 (134..<154)
        #expect(mixed.itemPaths(in: Rect(x: 0, y: 134, width: 390, height: 20)).isEmpty)
    }

    @Test func rectsAboveOrBelowTheContentFindNothing() {
        // Given the mixed list, 274 high
        // When rects end at its top or start at its bottom or further away
        // Then they find nothing
        #expect(mixed.itemPaths(in: Rect(x: 0, y: -50, width: 390, height: 50)).isEmpty)
        #expect(mixed.itemPaths(in: Rect(x: 0, y: 274, width: 390, height: 100)).isEmpty)
        #expect(mixed.itemPaths(in: Rect(x: 0, y: 10_000, width: 390, height: 844)).isEmpty)
        #expect(mixed.itemPaths(in: Rect(x: 0, y: -10_000, width: 390, height: 844)).isEmpty)
    }

    @Test func aZeroHeightRectFindsTheRowItCrosses() {
        // Given the mixed list
        // When a zero-height rect lies inside row 1, then on the boundary between rows 0 and 1
        // Then it intersects row 1 only in the first case (as `Rect.intersects` defines it)
        #expect(mixed.itemPaths(in: Rect(x: 0, y: 50, width: 390, height: 0)) == [ItemPath(row: 1, section: 0)])
        #expect(mixed.itemPaths(in: Rect(x: 0, y: 44, width: 390, height: 0)).isEmpty)
    }

    @Test func rowsOfOneHeightNeedNoStoragePerRow() {
        // Given rows of 44 in sections of 3, 0 and 2 rows, 8 between sections
        let list = ListLayout(width: 320, rowHeight: 44, rowCounts: [3, 0, 2], sectionSpacing: 8)

        // When its frames and a query are read
        // Then section 2 starts at 132 + 2 × 8 = 148
        #expect(list.boundaries.isEmpty)
        #expect(list.frame(at: ItemPath(row: 2, section: 0)) == Rect(x: 0, y: 88, width: 320, height: 44))
        #expect(list.frame(at: ItemPath(row: 1, section: 2)) == Rect(x: 0, y: 192, width: 320, height: 44))
        #expect(list.contentSize == Size(width: 320, height: 236))
        #expect(
            list.itemPaths(in: Rect(x: 0, y: 100, width: 320, height: 60))
                == [ItemPath(row: 2, section: 0), ItemPath(row: 0, section: 2)])
        // and the one-section conveniences agree with the general initializers
        let single = ListLayout(width: 320, rowHeight: 44, rowCount: 4)
        #expect(single.numberOfSections == 1 && single.totalItemCount == 4 && single.contentSize.height == 176)
        let heights = ListLayout(width: 320, rowHeights: [10, 20])
        #expect(heights.frame(at: ItemPath(row: 1, section: 0)) == Rect(x: 0, y: 10, width: 320, height: 20))
    }

    @Test func flatIndicesSkipEmptySections() {
        // Given the mixed list, whose section 1 is empty
        // When items are numbered across sections
        // Then section 2 follows section 0 directly, both ways
        #expect(mixed.flatIndex(of: ItemPath(row: 2, section: 0)) == 2)
        #expect(mixed.flatIndex(of: ItemPath(row: 0, section: 2)) == 3)
        #expect(mixed.itemPath(atFlatIndex: 3) == ItemPath(row: 0, section: 2))
        #expect(mixed.itemPath(atFlatIndex: 4) == ItemPath(row: 1, section: 2))
        // and many leading empty sections do not confuse the search
        let list = ListLayout(width: 100, rowHeight: 10, rowCounts: [0, 0, 0, 2, 0, 0, 1, 0])
        #expect(
            (0..<3).map(list.itemPath(atFlatIndex:)) == [
                ItemPath(row: 0, section: 3), ItemPath(row: 1, section: 3), ItemPath(row: 0, section: 6),
            ])
    }

    @Test func emptyListsHaveNoItemsAnywhere() {
        // Given a list without sections, and one with three empty sections 5 apart
        let none = ListLayout(width: 100, heights: [])
        let empty = ListLayout(width: 100, rowHeight: 44, rowCounts: [0, 0, 0], sectionSpacing: 5)

        // When they are queried
        // Then nothing is found; the empty sections still take their spacing
        #expect(none.contentSize == Size(width: 100, height: 0))
        #expect(none.totalItemCount == 0 && none.numberOfSections == 0)
        #expect(none.itemPaths(in: Rect(x: 0, y: -100, width: 100, height: 1000)).isEmpty)
        #expect(empty.contentSize == Size(width: 100, height: 10))
        #expect(empty.totalItemCount == 0)
        #expect(empty.itemPaths(in: Rect(x: 0, y: -100, width: 100, height: 1000)).isEmpty)
    }

    @Test func zeroHeightRowsAreFoundOnlyStrictlyInsideARect() {
        // Given rows of 0, 10, 0, 0 and 10
        let list = ListLayout(width: 100, rowHeights: [0, 10, 0, 0, 10])

        // When rects cover the collapsed rows at y = 10 strictly, or only up to them
        // Then collapsed rows count only when the rect extends on both sides of them
        #expect(list.itemPaths(in: Rect(x: 0, y: 5, width: 100, height: 10)).map(\.row) == [1, 2, 3, 4])
        #expect(list.itemPaths(in: Rect(x: 0, y: 0, width: 100, height: 10)).map(\.row) == [1])
        #expect(list.itemPaths(in: Rect(x: 0, y: 10, width: 100, height: 10)).map(\.row) == [4])
    }

    // MARK: - Randomized against brute force

    @Test(arguments: [0x11A7_0001, 0x11A7_0002, 0xBAD5_EED5, 0x0123_4567_89AB_CDEF] as [UInt64])
    func matchesABruteForceScan(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        for index in 0..<150 {
            // Given a random list
            let spec = RandomList(using: &random)
            let list = spec.layout
            let context = "seed \(seed), list \(index): \(spec)"

            // Then its numbering, frames and queries hold
            LayoutChecks.checkNumbering(of: list, context: context)
            checkFrames(of: list, spec: spec, context: context)
            LayoutChecks.checkQueries(of: list, count: 40, using: &random, context: context)
        }
    }

    /// Checks every frame against the heights, computed independently.
    ///
    /// Rows with their own heights touch exactly, and the content ends exactly
    /// at the last row: each boundary is the one above plus a height, and
    /// `a + ((a + h) - a) == a + h` in binary floating point. Rows of one height
    /// are placed by multiplication, so they touch exactly only when the
    /// products are exact (heights in quarters).
    private func checkFrames(of list: ListLayout, spec: RandomList, context: String) {
        let tolerance = LayoutChecks.tolerance(for: list)
        let touchExactly = !spec.isUniform || spec.isExact
        var sumOfHeights = 0.0
        var lastMaxY: Double?
        for (section, heights) in spec.heights.enumerated() {
            for (row, height) in heights.enumerated() {
                let frame = list.frame(at: ItemPath(row: row, section: section))
                let expectedTop = sumOfHeights + Double(section) * spec.sectionSpacing
                let touches =
                    row == 0
                    || lastMaxY.map { touchExactly ? frame.minY == $0 : abs(frame.minY - $0) <= tolerance } == true
                let matches =
                    frame.minX == 0 && frame.width == spec.width && abs(frame.minY - expectedTop) <= tolerance
                    && abs(frame.height - height) <= tolerance && (!spec.isUniform || frame.height == height)
                    && touches
                guard matches else {
                    Issue.record("\(context): row \(row) of section \(section) is \(frame), expected y \(expectedTop)")
                    return
                }
                sumOfHeights += height
                lastMaxY = frame.maxY
            }
        }
        let sections = spec.heights.count
        let expectedHeight = sections == 0 ? 0 : sumOfHeights + Double(sections - 1) * spec.sectionSpacing
        #expect(abs(list.contentSize.height - expectedHeight) <= tolerance, "\(context)")
        #expect(list.contentSize.width == spec.width, "\(context)")
        // The content ends with the last row, unless trailing empty sections add their spacing.
        if let lastMaxY, spec.heights.last?.isEmpty == false {
            #expect(list.contentSize.height == lastMaxY, "\(context)")
        }
    }

    // MARK: - Large lists

    @Test func aMillionRowsOfOneHeightAnswerAViewportDeepDown() {
        // Given a million rows of 44
        let list = ListLayout(width: 390, rowHeight: 44, rowCount: 1_000_000)

        // When a viewport starts 10 into row 600,000
        let rect = Rect(x: 0, y: 600_000 * 44 + 10, width: 390, height: 844)
        let paths = list.itemPaths(in: rect)

        // Then it finds rows 600,000 through 600,019, which its frames confirm
        #expect(paths.map(\.row) == Array(600_000...600_019))
        LayoutChecks.checkDeepQuery(of: list, rect: rect, margin: 3)
        #expect(list.contentSize.height == 44_000_000)
    }

    @Test func aMillionRowsOfTheirOwnHeightsAnswerAViewportDeepDown() {
        // Given a million rows of 40 to 139 points in ten sections, 16 apart
        let heights: [[Double]] = (0..<10).map { section in
            (0..<100_000).map { row -> Double in
                let flatIndex = section * 100_000 + row
                return Double(40 + flatIndex * 37 % 100)
            }
        }
        let list = ListLayout(width: 390, heights: heights, sectionSpacing: 16)

        // When viewports are queried at a few depths, one across a section boundary
        let boundary = list.frame(at: ItemPath(row: 0, section: 7)).minY
        for y in [list.contentSize.height * 0.37, list.contentSize.height * 0.91, boundary - 400] {
            let rect = Rect(x: 0, y: y, width: 390, height: 844)

            // Then what they find is exactly what the frames around them say
            LayoutChecks.checkDeepQuery(of: list, rect: rect, margin: 3)
        }
        #expect(list.itemPath(atFlatIndex: 700_000) == ItemPath(row: 0, section: 7))
        #expect(list.flatIndex(of: ItemPath(row: 99_999, section: 9)) == 999_999)
    }

    // MARK: - Preconditions

    @Test func invalidInputStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            _ = ListLayout(width: 0, rowHeight: 44, rowCount: 1)
        }
        await #expect(processExitsWith: .failure) {
            _ = ListLayout(width: 100, rowHeight: -1, rowCount: 1)
        }
        await #expect(processExitsWith: .failure) {
            _ = ListLayout(width: 100, rowHeight: 44, rowCounts: [1, -1])
        }
        await #expect(processExitsWith: .failure) {
            _ = ListLayout(width: 100, heights: [[10, -5]])
        }
        await #expect(processExitsWith: .failure) {
            _ = ListLayout(width: 100, rowHeight: 44, rowCounts: [1], sectionSpacing: -1)
        }
    }
}

/// A random list and the heights it was made from.
private struct RandomList: CustomStringConvertible {
    var width: Double
    var heights: [[Double]]
    var sectionSpacing: Double
    var isUniform: Bool
    /// Whether every height and spacing is a multiple of 1/4, so that every sum is exact.
    var isExact: Bool

    init(using random: inout SeededRandom) {
        isExact = random.chance(0.5)
        isUniform = random.chance(0.3)
        let exact = isExact
        func length(upTo limit: Double, random: inout SeededRandom) -> Double {
            if random.chance(0.1) { return 0 }
            let value = Double.random(in: 0...limit, using: &random)
            return exact ? (value * 4).rounded() / 4 : value
        }
        width = max(0.25, length(upTo: 1000, random: &random))
        sectionSpacing = random.chance(0.5) ? 0 : length(upTo: 40, random: &random)
        let rowHeight = length(upTo: 120, random: &random)
        let uniform = isUniform
        heights = (0..<Int.random(in: 0...6, using: &random)).map { _ in
            let count = random.chance(0.25) ? 0 : Int.random(in: 1...15, using: &random)
            return (0..<count).map { _ in uniform ? rowHeight : length(upTo: 120, random: &random) }
        }
    }

    var layout: ListLayout {
        guard isUniform else { return ListLayout(width: width, heights: heights, sectionSpacing: sectionSpacing) }
        return ListLayout(
            width: width, rowHeight: heights.lazy.compactMap(\.first).first ?? 44, rowCounts: heights.map(\.count),
            sectionSpacing: sectionSpacing)
    }

    var description: String {
        "width \(width), sectionSpacing \(sectionSpacing), \(isUniform ? "uniform " : "")heights \(heights)"
    }
}
