/// Texture's preload range: a number of screenfuls ahead of the viewport
/// (leading) and behind it (trailing), swapped when the direction changes.
///
/// With the defaults, 2.5 screens ahead and 1.5 behind, a fling rarely
/// outruns the range; the price is loading much that is never seen, which
/// the simulator counts as waste.
package struct ScreensPrefetchPolicy: PrefetchPolicyProtocol {
    /// Screenfuls ahead of the viewport in the direction of travel.
    public var leading: Double
    /// Screenfuls behind it.
    public var trailing: Double

    public init(leading: Double = 2.5, trailing: Double = 1.5) {
        precondition(leading >= 0 && trailing >= 0, "ScreensPrefetchPolicy: screenfuls must not be negative")
        self.leading = leading
        self.trailing = trailing
    }

    /// - Complexity: O(log n + k log k) for k items in the range.
    public mutating func window(for context: PrefetchContext, layout: any CollectionLayout) -> [ItemPath] {
        let visible = context.frame.visibleRect
        let screen = visible.height
        let (above, below) = context.direction == .forward ? (trailing, leading) : (leading, trailing)
        let top = max(0, visible.minY - above * screen)
        let bottom = visible.maxY + below * screen
        let range = Rect(x: visible.minX, y: top, width: visible.width, height: bottom - top)
        let visibleSet = Set(context.visibleItems)
        // Nearest first; at equal distance, what lies ahead before what lies behind.
        var candidates: [(distance: Double, behind: Int, path: ItemPath)] = []
        for path in layout.itemPaths(in: range) where !visibleSet.contains(path) {
            let frame = layout.frame(at: path)
            let isAbove = frame.maxY <= visible.minY
            let behind = (isAbove == (context.direction == .forward)) ? 1 : 0
            candidates.append((frame.verticalDistance(to: visible), behind, path))
        }
        candidates.sort { ($0.distance, $0.behind, $0.path) < ($1.distance, $1.behind, $1.path) }
        return candidates.map(\.path)
    }
}
