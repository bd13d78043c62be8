// The network models of the built-in scenarios.

extension NetworkModel {
    /// The network of the `feed` scenario: a JSON API over a good connection.
    ///
    /// Latency median 120 ms / p99 800 ms; items of 1.5–2.5 KB (uniform,
    /// ~2 KB); bandwidth unlimited, because a few kilobytes per item never
    /// saturate a real link — the latency is the whole story; no failures.
    public static func feed(seed: UInt64) -> NetworkModel {
        NetworkModel(
            seed: seed, latency: .logNormal(median: .milliseconds(120), p99: .milliseconds(800)),
            payload: .uniform(1_500...2_500))
    }

    /// The network of the `photos` scenario: thumbnails from a CDN.
    ///
    /// Latency median 80 ms / p99 400 ms; thumbnails of 45–75 KB (uniform,
    /// ~60 KB); a 20 Mbit/s link shared by the loads in flight, where six
    /// thumbnails at once take ~144 ms on top of their latency; no failures.
    public static func photos(seed: UInt64) -> NetworkModel {
        NetworkModel(
            seed: seed, latency: .logNormal(median: .milliseconds(80), p99: .milliseconds(400)),
            payload: .uniform(45_000...75_000), bandwidth: .bitsPerSecond(20_000_000))
    }

    /// The network of the `slow-network` scenario: the feed over a 3G-like link.
    ///
    /// Latency median 600 ms / p99 3 s; the feed's 1.5–2.5 KB items; a
    /// 400 kbit/s shared link (2 KB takes 40 ms alone, 240 ms when six
    /// share it); no failures.
    public static func slowNetwork(seed: UInt64) -> NetworkModel {
        NetworkModel(
            seed: seed, latency: .logNormal(median: .milliseconds(600), p99: .seconds(3)),
            payload: .uniform(1_500...2_500), bandwidth: .bitsPerSecond(400_000))
    }
}
