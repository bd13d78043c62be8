// The chart's axes: from zero, with round tick steps.

extension SimulationChart {
    /// A linear axis from zero with round tick steps (1, 2, 2.5 or 5 × 10ⁿ).
    ///
    /// The maximum is never zero, so positions can always be divided by it: an
    /// axis over nothing but zeros spans `fallbackMaximum` instead.
    struct Axis: Equatable {
        /// The value at the far end of the axis: a multiple of `step`, at least the covered value.
        let maximum: Double
        /// The distance between ticks.
        let step: Double
        /// Decimals needed to print every tick exactly.
        let decimals: Int

        /// An axis from zero that covers `value` with about `targetTicks` steps.
        ///
        /// - Parameters:
        ///   - value: The largest value to show; non-finite or non-positive values
        ///     fall back to `fallbackMaximum`.
        ///   - integral: Whether ticks must be whole numbers (counts, seconds).
        init(covering value: Double, targetTicks: Int = 5, integral: Bool = false, fallbackMaximum: Double = 1) {
            let covered = value.isFinite && value > 0 ? value : max(fallbackMaximum, .leastNormalMagnitude)
            let raw = covered / Double(max(1, targetTicks))
            var exponent = Self.log10Floor(raw)
            let base = Self.power10(exponent)
            let candidates: [Double] = integral ? [1, 2, 5, 10] : [1, 2, 2.5, 5, 10]
            // A small tolerance keeps 0.2 / 0.1 from picking the next candidate up.
            var mantissa = candidates.first { $0 * base >= raw * (1 - 1e-9) } ?? 10
            if mantissa == 10 {
                mantissa = 1
                exponent += 1
            }
            var step = mantissa * Self.power10(exponent)
            if integral, step < 1 {
                step = 1
                mantissa = 1
                exponent = 0
            }
            self.step = step
            self.maximum = (covered / step * (1 - 1e-12)).rounded(.up) * step
            self.decimals = max(0, -exponent + (mantissa == 2.5 ? 1 : 0))
        }

        /// Tick values from zero up to `limit` (the axis maximum by default), both included.
        func ticks(upTo limit: Double? = nil) -> [Double] {
            let end = limit ?? maximum
            let count = Int((end / step * (1 + 1e-9)).rounded(.down))
            return (0...max(0, count)).map { Double($0) * step }
        }

        /// A tick value printed with just the decimals the step needs.
        func label(_ value: Double) -> String {
            SimulationChart.fixed(value, decimals: decimals)
        }

        private static func power10(_ exponent: Int) -> Double {
            var result = 1.0
            if exponent >= 0 {
                for _ in 0..<exponent { result *= 10 }
            } else {
                for _ in 0..<(-exponent) { result /= 10 }
            }
            return result
        }

        /// ⌊log₁₀ value⌋ for a positive finite value, by repeated scaling, so the
        /// result does not depend on the platform's `log10` rounding.
        private static func log10Floor(_ value: Double) -> Int {
            var exponent = 0
            var scaled = value
            while scaled >= 10 {
                scaled /= 10
                exponent += 1
            }
            while scaled < 1 {
                scaled *= 10
                exponent -= 1
            }
            return exponent
        }
    }

    /// `value` with exactly `decimals` digits after the point ("12.50"), rounded
    /// half away from zero; non-finite values print as 0.
    ///
    /// Not `String(format:)`: this keeps the library free of Foundation and the
    /// output independent of any locale.
    static func fixed(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return "0" }
        var scale = 1.0
        for _ in 0..<max(0, decimals) { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        guard scaled < 9e15 else { return value < 0 ? "-9000000000000000" : "9000000000000000" }
        let units = Int64(scaled)
        let sign = value < 0 && units != 0 ? "-" : ""
        let whole = units / Int64(scale)
        guard decimals > 0 else { return "\(sign)\(whole)" }
        let fraction = String(units % Int64(scale))
        return "\(sign)\(whole)." + String(repeating: "0", count: decimals - fraction.count) + fraction
    }

    /// A coordinate for an attribute: one decimal, without a trailing ".0".
    static func coordinate(_ value: Double) -> String {
        let text = fixed(value, decimals: 1)
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }

    /// A ratio (0…1) as a percentage with the given decimals: "12.5%".
    static func percent(_ ratio: Double, decimals: Int) -> String {
        fixed(sanitized(ratio) * 100, decimals: decimals) + "%"
    }

    /// A value fit to draw: non-finite and negative values become 0.
    static func sanitized(_ value: Double) -> Double {
        value.isFinite && value > 0 ? value : 0
    }
}
