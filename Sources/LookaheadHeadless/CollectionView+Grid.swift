// The headless CollectionView's grid: the UniformGridLayout its items fill.

public import Lookahead

extension CollectionView {
    /// How a ``CollectionView`` lays out its items: a ``UniformGridLayout`` whose
    /// columns fill the view's width.
    public struct Grid: Hashable, Sendable {
        /// How tall an item is.
        public enum ItemSize: Hashable, Sendable {
            /// Width divided by height: the width follows from the columns.
            case aspectRatio(Double)
            /// A fixed height in points.
            case height(Double)
        }

        /// Items per row; at least 1.
        public var columns: Int
        /// The gap between columns and between rows.
        public var spacing: Double
        /// How tall an item is.
        public var itemSize: ItemSize
        /// The vertical gap between consecutive sections.
        public var sectionSpacing: Double

        /// Creates a grid description; ``UniformGridLayout`` checks the values when the
        /// view lays out.
        public init(
            columns: Int = 4, spacing: Double = 0, itemSize: ItemSize = .aspectRatio(1), sectionSpacing: Double = 0
        ) {
            self.columns = columns
            self.spacing = spacing
            self.itemSize = itemSize
            self.sectionSpacing = sectionSpacing
        }

        /// The layout of these counts at this width.
        ///
        /// - Complexity: O(sections).
        public func makeLayout(width: Double, itemCounts: [Int]) -> UniformGridLayout {
            switch itemSize {
            case .aspectRatio(let ratio):
                UniformGridLayout(
                    width: width, columns: columns, itemCounts: itemCounts, spacing: spacing, aspectRatio: ratio,
                    sectionSpacing: sectionSpacing)
            case .height(let height):
                UniformGridLayout(
                    width: width, columns: columns, itemHeight: height, itemCounts: itemCounts, spacing: spacing,
                    sectionSpacing: sectionSpacing)
            }
        }
    }
}
