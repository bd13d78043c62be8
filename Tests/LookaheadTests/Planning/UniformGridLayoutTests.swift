import Testing

@testable import Lookahead

@Suite(.timeLimit(.minutes(1)))
struct UniformGridLayoutTests {
    /// 4 columns of 96 × 96 on a 390-point-wide screen, 2 apart (a pitch of 98); sections of
    /// 10, 0 and 5 items, 20 apart.
    let photos = UniformGridLayout(width: 390, columns: 4, itemCounts: [10, 0, 5], spacing: 2, sectionSpacing: 20)

    private func paths(_ section: Int, _ items: some Sequence<Int>) -> [ItemPath] {
        items.map { ItemPath(item: $0, section: section) }
    }

    // MARK: - Hand-checked layouts

    @Test func fourColumnsFillTheWidthOfAPhone() {
        // Given the photo grid
        // When its frames are read
        // Then items are 96 wide, the last column ends at 390, and section 2 starts
        // 20 below the empty section 1, which starts 20 below section 0's last row (292)
        #expect(photos.itemSize == Size(width: 96, height: 96))
        #expect(photos.frame(at: ItemPath(item: 0, section: 0)) == Rect(x: 0, y: 0, width: 96, height: 96))
        #expect(photos.frame(at: ItemPath(item: 5, section: 0)) == Rect(x: 98, y: 98, width: 96, height: 96))
        #expect(photos.frame(at: ItemPath(item: 3, section: 0)).maxX == 390)
        #expect(photos.frame(at: ItemPath(item: 9, section: 0)) == Rect(x: 98, y: 196, width: 96, height: 96))
        #expect(photos.frame(at: ItemPath(item: 0, section: 2)) == Rect(x: 0, y: 332, width: 96, height: 96))
        #expect(photos.frame(at: ItemPath(item: 4, section: 2)) == Rect(x: 0, y: 430, width: 96, height: 96))
        #expect(photos.contentSize == Size(width: 390, height: 526))
        #expect(photos.columns == 4)
        #expect(photos.totalItemCount == 15)
        #expect([0, 1, 2].map(photos.numberOfItems(inSection:)) == [10, 0, 5])
    }

    @Test func aRectFindsWholeRowsAndPartlyCoveredOnes() {
        // Given the photo grid
        // When a viewport covers 90..<190: the end of row 0, the gap, most of row 1
        // Then both rows are found, in order
        #expect(photos.itemPaths(in: Rect(x: 0, y: 90, width: 390, height: 100)) == paths(0, 0..<8))
        // and a rect across the section spacing finds the rows on both sides, short last row included
        #expect(photos.itemPaths(in: Rect(x: 0, y: 250, width: 390, height: 200)) == paths(0, 8..<10) + paths(2, 0..<5))
    }

    @Test func aNarrowRectLeavesColumnsOut() {
        // Given the photo grid
        // When a rect covers x 100..<200 of row 0: most of column 1 and 4 points of column 2
        // Then columns 1 and 2 are found
        #expect(photos.itemPaths(in: Rect(x: 100, y: 0, width: 100, height: 96)) == paths(0, [1, 2]))
        // and a tall one across columns 2 and 3 finds them in every row, except where a row is short
        #expect(
            photos.itemPaths(in: Rect(x: 200, y: 0, width: 190, height: 526))
                == paths(0, [2, 3, 6, 7]) + paths(2, [2, 3]))
    }

    @Test func touchingEdgesDoNotCount() {
        // Given the photo grid
        // When rects fill exactly the gaps between rows, columns and sections
        // Then they find nothing
        #expect(photos.itemPaths(in: Rect(x: 0, y: 96, width: 390, height: 2)).isEmpty)
        #expect(photos.itemPaths(in: Rect(x: 96, y: 0, width: 2, height: 526)).isEmpty)
        #expect(photos.itemPaths(in: Rect(x: 194, y: 0, width: 2, height: 526)).isEmpty)
        #expect(photos.itemPaths(in: Rect(x: 0, y: 292, width: 390, height: 40)).isEmpty)
        // and a rect one point into row 1 finds row 1 only
        #expect(photos.itemPaths(in: Rect(x: 0, y: 96, width: 390, height: 3)) == paths(0, 4..<8))
        // and a rect beside a short last row finds nothing
        #expect(photos.itemPaths(in: Rect(x: 100, y: 430, width: 290, height: 96)).isEmpty)
    }

    @Test func rectsAboveBelowOrBesideTheContentFindNothing() {
        // Given the photo grid, 390 × 526
        // When rects end at its edges or lie further away
        // Then they find nothing
        #expect(photos.itemPaths(in: Rect(x: 0, y: -100, width: 390, height: 100)).isEmpty)
        #expect(photos.itemPaths(in: Rect(x: 0, y: 526, width: 390, height: 844)).isEmpty)
        #expect(photos.itemPaths(in: Rect(x: 0, y: 50_000, width: 390, height: 844)).isEmpty)
        #expect(photos.itemPaths(in: Rect(x: 390, y: 0, width: 100, height: 526)).isEmpty)
        #expect(photos.itemPaths(in: Rect(x: -100, y: 0, width: 100, height: 526)).isEmpty)
    }

    @Test func anExplicitItemHeightOverridesTheAspectRatio() {
        // Given 3 columns 3 apart on 390 points, items 150 high
        let grid = UniformGridLayout(width: 390, columns: 3, itemHeight: 150, itemCounts: [7], spacing: 3)

        // When item 4 (row 1, column 1) is placed
        // Then it is 128 wide, at x 131 and y 153
        #expect(grid.frame(at: ItemPath(item: 4, section: 0)) == Rect(x: 131, y: 153, width: 128, height: 150))
        #expect(grid.contentSize.height == 456)
        // and the aspect ratio sets the height otherwise, here for one section
        let wide = UniformGridLayout(width: 300, columns: 2, itemCount: 3, aspectRatio: 1.5)
        #expect(wide.itemSize == Size(width: 150, height: 100))
        #expect(wide.contentSize == Size(width: 300, height: 200))
    }

    @Test func flatIndicesSkipEmptySections() {
        // Given the photo grid, whose section 1 is empty
        // When items are numbered across sections
        // Then section 2 follows section 0 directly, both ways
        #expect(photos.flatIndex(of: ItemPath(item: 9, section: 0)) == 9)
        #expect(photos.flatIndex(of: ItemPath(item: 0, section: 2)) == 10)
        #expect(photos.itemPath(atFlatIndex: 10) == ItemPath(item: 0, section: 2))
        #expect(photos.itemPath(atFlatIndex: 14) == ItemPath(item: 4, section: 2))
    }

    @Test func emptyGridsHaveNoItemsAnywhere() {
        // Given a grid without sections, and one with two empty sections 12 apart
        let none = UniformGridLayout(width: 390, columns: 3, itemCounts: [])
        let empty = UniformGridLayout(width: 390, columns: 3, itemCounts: [0, 0], sectionSpacing: 12)

        // When they are queried
        // Then nothing is found; the empty sections still take their spacing
        #expect(none.contentSize == Size(width: 390, height: 0))
        #expect(none.itemPaths(in: Rect(x: 0, y: -10, width: 390, height: 1000)).isEmpty)
        #expect(empty.contentSize == Size(width: 390, height: 12))
        #expect(empty.totalItemCount == 0)
        #expect(empty.itemPaths(in: Rect(x: 0, y: -10, width: 390, height: 1000)).isEmpty)
    }

    // MARK: - Randomized against brute force

    @Test(arguments: [0x6121_0001, 0x6121_0002, 0xFEED_FACE, 0x0FED_CBA9_8765_4321] as [UInt64])
    func matchesABruteForceScan(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        for index in 0..<150 {
            // Given a random grid
            let spec = RandomGrid(using: &random)
            let grid = spec.layout
            let context = "seed \(seed), grid \(index): \(spec)"

            // Then its numbering, frames and queries hold
            LayoutChecks.checkNumbering(of: grid, context: context)
            checkFrames(of: grid, spec: spec, context: context)
            LayoutChecks.checkQueries(of: grid, count: 40, using: &random, context: context)
        }
    }

    /// Checks every frame against the parameters, computed independently.
    private func checkFrames(of grid: UniformGridLayout, spec: RandomGrid, context: String) {
        let tolerance = LayoutChecks.tolerance(for: grid)
        let itemWidth = (spec.width - spec.spacing * Double(spec.columns - 1)) / Double(spec.columns)
        let itemHeight = spec.itemHeight ?? itemWidth / spec.aspectRatio
        #expect(grid.itemSize == Size(width: itemWidth, height: itemHeight), "\(context)")
        var sectionTop = 0.0
        var maxY = 0.0
        for (section, count) in spec.itemCounts.enumerated() {
            if section > 0 { sectionTop += spec.sectionSpacing }
            for item in 0..<count {
                let frame = grid.frame(at: ItemPath(item: item, section: section))
                let (row, column) = item.quotientAndRemainder(dividingBy: spec.columns)
                let x = Double(column) * (itemWidth + spec.spacing)
                let y = sectionTop + Double(row) * (itemHeight + spec.spacing)
                let lastColumnFits = column < spec.columns - 1 || abs(frame.maxX - spec.width) <= tolerance
                guard
                    frame.size == grid.itemSize, abs(frame.minX - x) <= tolerance, abs(frame.minY - y) <= tolerance,
                    lastColumnFits
                else {
                    Issue.record("\(context): item \(item) of section \(section) is \(frame), expected (\(x), \(y))")
                    return
                }
                maxY = max(maxY, frame.maxY)
            }
            let rows = (count + spec.columns - 1) / spec.columns
            if rows > 0 { sectionTop += Double(rows) * itemHeight + Double(rows - 1) * spec.spacing }
        }
        #expect(abs(grid.contentSize.height - sectionTop) <= tolerance, "\(context)")
        #expect(grid.contentSize.width == spec.width, "\(context)")
        // The content ends with the last row exactly, unless trailing empty sections add their spacing.
        if spec.itemCounts.last.map({ $0 > 0 }) == true {
            #expect(grid.contentSize.height == maxY, "\(context)")
        }
    }

    // MARK: - Large grids

    @Test func aMillionItemsAnswerAViewportDeepDown() {
        // Given a million photos, 4 columns 2 apart on 390 points (rows 98 apart)
        let grid = UniformGridLayout(width: 390, columns: 4, itemCount: 1_000_000, spacing: 2)

        // When a viewport starts 50 into row 200,000
        let rect = Rect(x: 0, y: 200_000 * 98 + 50, width: 390, height: 844)
        let found = grid.itemPaths(in: rect)

        // Then it finds rows 200,000 through 200,009, which its frames confirm
        #expect(found == paths(0, 800_000..<800_040))
        LayoutChecks.checkDeepQuery(of: grid, rect: rect, margin: 8)
    }

    @Test func aMillionItemsInManySectionsAnswerViewportsDeepDown() {
        // Given about a million items in 1,000 sections of 997 to 1,003 and 111 empty ones, 3 columns,
        // 24 between sections
        let counts = (0..<1_111).map { $0 % 10 == 9 ? 0 : 997 + $0 % 7 }
        let grid = UniformGridLayout(
            width: 375, columns: 3, itemCounts: counts, spacing: 1, aspectRatio: 0.75, sectionSpacing: 24)

        // When viewports are queried at a few depths, one across a section boundary
        let boundary = grid.frame(at: ItemPath(item: 0, section: 701)).minY
        for y in [grid.contentSize.height * 0.42, grid.contentSize.height * 0.88, boundary - 400] {
            let rect = Rect(x: 0, y: y, width: 375, height: 812)

            // Then what they find is exactly what the frames around them say
            LayoutChecks.checkDeepQuery(of: grid, rect: rect, margin: 6)
        }
        let total = counts.reduce(0, +)
        #expect(grid.itemPath(atFlatIndex: total - 1) == ItemPath(item: counts[1_110] - 1, section: 1_110))
    }

    // MARK: - Preconditions

    @Test func invalidInputStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            _ = UniformGridLayout(width: -1, columns: 3, itemCount: 1)
        }
        await #expect(processExitsWith: .failure) {
            _ = UniformGridLayout(width: 390, columns: 0, itemCount: 1)
        }
        await #expect(processExitsWith: .failure) {
            _ = UniformGridLayout(width: 390, columns: 4, itemCounts: [3, -1])
        }
        await #expect(processExitsWith: .failure) {
            _ = UniformGridLayout(width: 390, columns: 4, itemCount: 1, spacing: 130)
        }
        await #expect(processExitsWith: .failure) {
            _ = UniformGridLayout(width: 390, columns: 4, itemCount: 1, aspectRatio: 0)
        }
        await #expect(processExitsWith: .failure) {
            _ = UniformGridLayout(width: 390, columns: 4, itemHeight: -1, itemCounts: [1])
        }
    }
}

/// The parameters of a random grid.
private struct RandomGrid: CustomStringConvertible {
    var width: Double
    var columns: Int
    var itemCounts: [Int]
    var spacing: Double
    var aspectRatio: Double
    /// Set to give the items this height instead of the aspect ratio's.
    var itemHeight: Double?
    var sectionSpacing: Double

    init(using random: inout SeededRandom) {
        width = random.chance(0.3) ? 390 : Double.random(in: 20...1000, using: &random)
        columns = Int.random(in: 1...8, using: &random)
        // Leave at least half the width to the items.
        let maxSpacing = columns == 1 ? 10 : width / 2 / Double(columns - 1)
        spacing = random.chance(0.3) ? 0 : Double.random(in: 0...min(10, maxSpacing), using: &random)
        aspectRatio = Double.random(in: 0.5...2, using: &random)
        itemHeight =
            random.chance(0.3) ? (random.chance(0.2) ? 0 : Double.random(in: 1...300, using: &random)) : nil
        sectionSpacing = random.chance(0.5) ? 0 : Double.random(in: 0...40, using: &random)
        itemCounts = (0..<Int.random(in: 0...6, using: &random)).map { _ in
            random.chance(0.25) ? 0 : Int.random(in: 1...30, using: &random)
        }
    }

    var layout: UniformGridLayout {
        if let itemHeight {
            return UniformGridLayout(
                width: width, columns: columns, itemHeight: itemHeight, itemCounts: itemCounts, spacing: spacing,
                sectionSpacing: sectionSpacing)
        }
        return UniformGridLayout(
            width: width, columns: columns, itemCounts: itemCounts, spacing: spacing, aspectRatio: aspectRatio,
            sectionSpacing: sectionSpacing)
    }

    var description: String {
        "width \(width), columns \(columns), counts \(itemCounts), spacing \(spacing), "
            + "\(itemHeight.map { "itemHeight \($0)" } ?? "aspectRatio \(aspectRatio)"), sectionSpacing \(sectionSpacing)"
    }
}
