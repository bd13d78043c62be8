// The network model's link capacity, shared by the loads in flight.

extension NetworkModel {
    /// The capacity of the link that the loads in flight share.
    public enum Bandwidth: Sendable, Hashable {
        /// No limit: a payload arrives the moment its first byte does.
        case unlimited

        /// A link of this many bits per second (20 Mbit/s is `20_000_000`),
        /// shared equally by the loads transferring at the same time.
        ///
        /// - Precondition: positive and finite.
        case bitsPerSecond(Double)
    }
}
