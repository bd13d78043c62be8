// The trace generator's styles: the gestures each kind of user makes.

extension ScrollTraceGenerator {
    /// A way of scrolling: the gestures a simulated user makes and how often.
    ///
    /// Every style starts at the top and heads down the content; it turns to
    /// head up only on reaching the bottom (and down again at the top). Speeds
    /// are in pt/s, durations in seconds, probabilities per gesture; drag
    /// speeds wander within ±10 %. A flick is a 0.03–0.08 s finger contact at
    /// the fling's speed, then the fling. Flings decelerate at UIScrollView's
    /// 0.998 per ms and stop below 20 pt/s or dead at the content's edge. A
    /// pause never follows a pause; a reversal lasts one gesture (the next
    /// one heads on).
    public enum Style: String, Hashable, Sendable, CaseIterable {
        /// A person reading a feed on a phone, fitted to published
        /// measurements of reading on phones: about 7 gestures a minute, 58 %
        /// of them ending in a fling, release speeds of median ~90 pt/s, p90
        /// ~400, p99 ~2,000; still gaps between gestures of median 1.6 s, p90
        /// 13 s; 9 % reversals.
        ///
        /// - Drags at a log-normal speed (median 76 pt/s, p90 300, within
        ///   20–1,500) for a log-normal time (median 1.4 s, p90 4 s, within
        ///   0.15–8 s); 63 % of them end in a fling at 1–1.3 × the drag's speed.
        /// - Flicks (1.3 % of gestures): flings at 1,000–4,000 pt/s, uniform
        ///   in the logarithm.
        /// - Reversals: 9 % of gestures go up, each a short step back: a plain
        ///   drag of half the usual length, never a fling.
        /// - A still gap after every gesture, once the content stops:
        ///   log-normal, median 1.6 s, p90 13 s, within 0.1–120 s.
        case reading
        /// Browsing a photo grid: fast flings with frequent reversals.
        ///
        /// - Flicks (60 % of gestures): flings at 3,000–8,000 pt/s.
        /// - Drags at 300–900 pt/s for 0.15–0.5 s; 80 % end in a fling at
        ///   1.2–2 × the drag's speed.
        /// - Reversals: 25 % of gestures.
        /// - Short pauses after 50 % of gestures: 0.5–1.5 s.
        case photos
        /// Long flings through the content.
        ///
        /// - Flicks (85 % of gestures): flings at 6,000–10,000 pt/s.
        /// - Drags at 400–900 pt/s for 0.15–0.3 s, always ending in a fling
        ///   at 1.5–3 × the drag's speed.
        /// - Reversals: 30 % of gestures.
        /// - Short pauses after 50 % of gestures: 0.3–1 s.
        case flinging
        /// Skimming a feed: faster than `.reading` — drags at 150–600 pt/s for
        /// 0.3–1.2 s, 60 % of them ending in a fling at 1–1.4 × the drag's
        /// speed; flicks (12 %) at 1,500–4,000 pt/s; 10 % short reversals;
        /// pauses of 0.5–6 s after 65 % of gestures. What the live demo
        /// scrolls by default: in 15 s it reads, flings and pauses.
        case skimming
        /// Skimming a feed, with jumps to the top and back.
        ///
        /// Skims as `.skimming`, so that the jumps leave from deep in the
        /// content. Every 15–30 s it jumps to the top ("scroll to top", a
        /// 0.3 s animation), reads there for 1–4 s without moving, then jumps
        /// back (0.3 s) to 1–1.5 × the offset it left from, and skims on from
        /// there.
        case jumping

        var parameters: TraceGestureParameters {
            switch self {
            case .reading:
                return TraceGestureParameters(
                    dragSpeed: .logNormal(median: 76, p90: 300, range: 20...1_500),
                    dragDuration: .logNormal(median: 1.4, p90: 4, range: 0.15...8),
                    releaseFlingProbability: 0.63, releaseBoost: 1.0...1.3,
                    flickProbability: 0.013, flickSpeed: .logUniform(1_000...4_000),
                    reversalProbability: 0.09, shortReversals: true,
                    pauseProbability: 1, pauseDuration: .logNormal(median: 1.6, p90: 13, range: 0.1...120))
            case .photos:
                return TraceGestureParameters(
                    dragSpeed: .uniform(300...900), dragDuration: .uniform(0.15...0.5),
                    releaseFlingProbability: 0.8, releaseBoost: 1.2...2.0,
                    flickProbability: 0.6, flickSpeed: .uniform(3_000...8_000),
                    reversalProbability: 0.25,
                    pauseProbability: 0.5, pauseDuration: .uniform(0.5...1.5))
            case .flinging:
                return TraceGestureParameters(
                    dragSpeed: .uniform(400...900), dragDuration: .uniform(0.15...0.3),
                    releaseFlingProbability: 1, releaseBoost: 1.5...3.0,
                    flickProbability: 0.85, flickSpeed: .uniform(6_000...10_000),
                    reversalProbability: 0.30,
                    pauseProbability: 0.5, pauseDuration: .uniform(0.3...1))
            case .skimming:
                return TraceGestureParameters(
                    dragSpeed: .uniform(150...600), dragDuration: .uniform(0.3...1.2),
                    releaseFlingProbability: 0.6, releaseBoost: 1.0...1.4,
                    flickProbability: 0.12, flickSpeed: .uniform(1_500...4_000),
                    reversalProbability: 0.10, shortReversals: true,
                    pauseProbability: 0.65, pauseDuration: .uniform(0.5...6))
            case .jumping:
                var parameters = Style.skimming.parameters
                parameters.jumps = TraceGestureParameters.Jumps(
                    interval: 15...30, readAtTop: 1...4, returnDepth: 1...1.5)
                return parameters
            }
        }
    }
}
