// The network model's payload sizes, fixed per item.

extension NetworkModel {
    /// How many bytes an item's payload has. Fixed per item: a retry fetches
    /// the same bytes.
    public enum PayloadSizes: Sendable, Hashable {
        /// Every payload has the same size.
        case fixed(bytes: Int)

        /// Uniform over the range, drawn per item from the seed.
        ///
        /// - Precondition: the lower bound is not negative.
        case uniform(ClosedRange<Int>)

        /// Log-normal in bytes, as ``LatencyDistribution/logNormal(median:p99:)``:
        /// for payloads whose sizes vary over orders of magnitude (images).
        ///
        /// - Precondition: `median > 0`, `p99 >= median`.
        case logNormal(median: Int, p99: Int)
    }
}
