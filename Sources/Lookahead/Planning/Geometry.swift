/// A point in content coordinates, in points (y grows downwards, as in UIKit).
public struct Point: Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    public static let zero = Point(x: 0, y: 0)

    public var description: String { "(\(x), \(y))" }
}

/// A width and a height, in points.
public struct Size: Hashable, Sendable, CustomStringConvertible {
    public var width: Double
    public var height: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    public static let zero = Size(width: 0, height: 0)

    public var description: String { "\(width)×\(height)" }
}

/// An axis-aligned rectangle in content coordinates.
///
/// Lookahead's own geometry, so that the core builds on Linux without
/// CoreGraphics; on Apple platforms convert from `CGRect` field by field.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    public var origin: Point
    public var size: Size

    public init(origin: Point, size: Size) {
        self.origin = origin
        self.size = size
    }

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
    }

    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    public var minX: Double { origin.x }
    public var minY: Double { origin.y }
    public var maxX: Double { origin.x + size.width }
    public var maxY: Double { origin.y + size.height }
    public var width: Double { size.width }
    public var height: Double { size.height }

    /// Whether the two rectangles share an area (touching edges do not count).
    public func intersects(_ other: Rect) -> Bool {
        minX < other.maxX && other.minX < maxX && minY < other.maxY && other.minY < maxY
    }

    /// The vertical gap between this rectangle and `other`: 0 when they
    /// overlap vertically. Prefetch candidates are ordered by it.
    public func verticalDistance(to other: Rect) -> Double {
        if maxY <= other.minY { return other.minY - maxY }
        if other.maxY <= minY { return minY - other.maxY }
        return 0
    }

    public var description: String { "(\(minX), \(minY), \(width), \(height))" }
}
