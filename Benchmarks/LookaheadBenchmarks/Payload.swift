/// The value the benchmarks load: small, like the sample's `DisplayData` (a colour).
public struct Payload: Sendable, Hashable {
    public var identifier: Int
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8

    public init(identifier: Int) {
        self.identifier = identifier
        red = UInt8(truncatingIfNeeded: identifier)
        green = UInt8(truncatingIfNeeded: identifier &>> 8)
        blue = UInt8(truncatingIfNeeded: identifier &>> 16)
    }
}
