// IndexPath ↔ ItemPath, the one conversion between UIKit's index paths and
// the core's. Compiled only where UIKit exists; an empty module elsewhere.

#if canImport(UIKit) && !os(watchOS)
    public import Lookahead
    public import UIKit

    extension ItemPath {
        /// The item path of a UIKit index path (`section`, `item`).
        public init(_ indexPath: IndexPath) {
            self.init(item: indexPath.item, section: indexPath.section)
        }
    }

    extension IndexPath {
        /// The UIKit index path of an item path.
        public init(_ path: ItemPath) {
            self.init(item: path.item, section: path.section)
        }
    }

    extension Rect {
        /// The rectangle of a `CGRect`.
        public init(_ rect: CGRect) {
            self.init(
                x: Double(rect.origin.x), y: Double(rect.origin.y), width: Double(rect.size.width),
                height: Double(rect.size.height))
        }
    }

    extension CGRect {
        /// The `CGRect` of a rectangle.
        public init(_ rect: Rect) {
            self.init(x: rect.minX, y: rect.minY, width: rect.width, height: rect.height)
        }
    }

    extension Point {
        /// The point of a `CGPoint`.
        public init(_ point: CGPoint) {
            self.init(x: Double(point.x), y: Double(point.y))
        }
    }

    extension Size {
        /// The size of a `CGSize`.
        public init(_ size: CGSize) {
            self.init(width: Double(size.width), height: Double(size.height))
        }
    }
#endif
