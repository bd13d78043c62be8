/// What one load of a real replay brought back.
#if Tools
public struct ReplayPayload: Sendable, Hashable {
    /// The feed ids the response carried: one item's id, or a page's ids.
    public var ids: [Int]
    /// The size of the response body, in bytes.
    public var bytes: Int

    /// Creates a payload.
    public init(ids: [Int], bytes: Int) {
        self.ids = ids
        self.bytes = bytes
    }
}
#endif
