// IndexPath ↔ ItemPath, the one conversion between UIKit's index paths and
// the core's (CGRect ↔ Rect is the core's, Geometry+CoreGraphics.swift). Compiled only where UIKit exists; an empty module elsewhere.

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
#endif
