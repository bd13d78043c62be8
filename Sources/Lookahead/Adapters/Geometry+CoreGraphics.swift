// Lookahead's geometry from and to CoreGraphics', for the UIKit and SwiftUI
// glue: one place for the conversions both need. Compiled only where
// CoreGraphics exists (Apple platforms).

#if canImport(CoreGraphics)
public import CoreGraphics

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

extension Rect {
    /// The rectangle of a `CGRect`.
    public init(_ rect: CGRect) {
        self.init(origin: Point(rect.origin), size: Size(rect.size))
    }
}

extension CGRect {
    /// The `CGRect` of a rectangle.
    public init(_ rect: Rect) {
        self.init(x: rect.minX, y: rect.minY, width: rect.width, height: rect.height)
    }
}
#endif
