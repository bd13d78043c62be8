/// What the demo loads for one cell: the item's identifier and how many bytes
/// its response took.
#if Tools
public struct DemoItem: Hashable, Sendable {
    /// The item's identifier.
    public var id: Int
    /// The size of the response body, in bytes.
    public var byteCount: Int

    /// Creates an item.
    public init(id: Int, byteCount: Int) {
        self.id = id
        self.byteCount = byteCount
    }
}
#endif
