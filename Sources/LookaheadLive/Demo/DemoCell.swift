/// One cell as the demo draws it; made with the memberwise initializer.
#if Tools
public struct DemoCell: Hashable, Sendable {
    /// Whether the cell's data has arrived.
    public enum State: Hashable, Sendable {
        /// The data is here: drawn red, as the sample's loaded cells.
        case loaded
        /// The data is missing (in flight or never asked for): drawn white.
        case missing
    }

    /// A short label drawn in the cell (its item's identifier); cut to fit.
    public var label: String
    /// Whether the data has arrived.
    public var state: State
}
#endif
