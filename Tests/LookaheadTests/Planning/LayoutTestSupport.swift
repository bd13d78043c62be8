import Testing

@testable import Lookahead

/// The checks both layouts' tests share: each layout against the definition
/// of its answers, by brute force over every item.
enum LayoutChecks {
    /// Every item path of `layout`, in ascending order.
    static func allItemPaths(of layout: some CollectionLayout) -> [ItemPath] {
        (0..<layout.numberOfSections).flatMap { section in
            (0..<layout.numberOfItems(inSection: section)).map { ItemPath(item: $0, section: section) }
        }
    }

    /// What `itemPaths(in:)` must answer: every item whose frame intersects `rect`, in order.
    static func itemPathsByScanning(_ layout: some CollectionLayout, _ rect: Rect) -> [ItemPath] {
        allItemPaths(of: layout).filter { layout.frame(at: $0).intersects(rect) }
    }

    /// Checks that the flat numbering counts the items in path order, and that
    /// `flatIndex(of:)` and `itemPath(atFlatIndex:)` invert each other.
    static func checkNumbering(of layout: some CollectionLayout, context: String) {
        let paths = allItemPaths(of: layout)
        #expect(layout.totalItemCount == paths.count, "\(context)")
        for (index, path) in paths.enumerated() {
            let flat = layout.flatIndex(of: path)
            let back = layout.itemPath(atFlatIndex: index)
            guard flat == index, back == path else {
                Issue.record("\(context): \(path) has flat index \(flat), flat index \(index) is \(back)")
                return
            }
        }
    }

    /// A rectangle that often lands on the edges of frames, and otherwise
    /// anywhere in or around the content: above, below, beside, thin, empty.
    static func randomRect(for layout: some CollectionLayout, using random: inout SeededRandom) -> Rect {
        let content = layout.contentSize
        let paths = allItemPaths(of: layout)
        let randomFrame = paths.randomElement(using: &random).map(layout.frame(at:))

        func coordinate(extent: Double, edges: (Double, Double)?) -> Double {
            if let edges, random.chance(0.4) { return random.chance(0.5) ? edges.0 : edges.1 }
            return Double.random(in: -0.2...1.2, using: &random) * extent + Double.random(in: -20...20, using: &random)
        }
        func length(extent: Double) -> Double {
            switch Int.random(in: 0..<10, using: &random) {
            case 0: 0
            case 1: -Double.random(in: 0...50, using: &random)  // inverted: `intersects` still has an answer
            case 2: extent + 100
            default: Double.random(in: 0...max(1, min(extent, 900)), using: &random)
            }
        }

        let y = coordinate(extent: content.height, edges: randomFrame.map { ($0.minY, $0.maxY) })
        var height = length(extent: content.height)
        if let otherFrame = paths.randomElement(using: &random).map(layout.frame(at:)), random.chance(0.3) {
            // End exactly on another frame's edge.
            height = (random.chance(0.5) ? otherFrame.minY : otherFrame.maxY) - y
        }
        if random.chance(0.5) {
            return Rect(x: 0, y: y, width: content.width, height: height)
        }
        let x = coordinate(extent: content.width, edges: randomFrame.map { ($0.minX, $0.maxX) })
        return Rect(x: x, y: y, width: length(extent: content.width), height: height)
    }

    /// Checks `itemPaths(in:)` against the brute-force scan for `count` random rectangles.
    static func checkQueries(
        of layout: some CollectionLayout, count: Int, using random: inout SeededRandom, context: String
    ) {
        for _ in 0..<count {
            let rect = randomRect(for: layout, using: &random)
            let expected = itemPathsByScanning(layout, rect)
            let actual = layout.itemPaths(in: rect)
            guard actual == expected else {
                Issue.record("\(context), rect \(rect): itemPaths(in:) is \(actual), expected \(expected)")
                return
            }
        }
    }

    /// Checks a query deep in a large layout without scanning it: every path
    /// returned intersects `rect`, in order, and the items just before and
    /// after the answer (in the flat order, `margin` of them) do not.
    static func checkDeepQuery(of layout: some CollectionLayout, rect: Rect, margin: Int) {
        let paths = layout.itemPaths(in: rect)
        guard let first = paths.first, let last = paths.last else {
            Issue.record("no items in \(rect)")
            return
        }
        #expect(paths.allSatisfy { layout.frame(at: $0).intersects(rect) })
        #expect(paths == paths.sorted())
        let firstIndex = layout.flatIndex(of: first)
        let lastIndex = layout.flatIndex(of: last)
        let returned = Set(paths)
        let around = max(0, firstIndex - margin)...min(layout.totalItemCount - 1, lastIndex + margin)
        let missed = around.map(layout.itemPath(atFlatIndex:)).filter {
            !returned.contains($0) && layout.frame(at: $0).intersects(rect)
        }
        #expect(missed.isEmpty, "missed \(missed)")
    }

    /// A tolerance for comparing positions computed in two different ways.
    static func tolerance(for layout: some CollectionLayout) -> Double {
        1e-9 * max(1, layout.contentSize.height)
    }
}
