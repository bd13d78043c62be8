/// `exp` and `log` in plain Swift arithmetic.
///
/// Not libm: glibc's and Darwin's `exp` and `log` are each accurate but may
/// round the last bit differently, and one bit in a latency can reorder two
/// completions, which changes a run. Built only from IEEE-754 operations
/// (`+ − × ÷`, `squareRoot`, exact scaling by powers of two), these give the
/// same bits on every platform, so a seed means the same network everywhere.
///
/// The promise stops at the network model. The traces' scrolling physics
/// (`TraceFling`, `TraceScroller`) and the planner's (`ScrollPhysics`) use
/// libm's `pow`, `log` and `cos`, so a whole run — and `--json` — is
/// byte-identical for the same seed on the same platform and toolchain, and
/// may differ in the last bits of an offset between glibc and Darwin.
///
/// Accuracy: within a few ulps of the true value (checked against libm in the
/// tests), far below anything the simulator can resolve (1 ns).
enum PortableMath {
    /// ln 2 split in two (fdlibm's constants): `ln2High` has 21 trailing zero
    /// bits, so `k · ln2High` is exact for every exponent `k` a Double has.
    static let ln2High = 6.931_471_803_691_238_164_90e-01
    static let ln2Low = 1.908_214_929_270_587_700_02e-10
    static let sqrt2 = 1.414_213_562_373_095_048_80

    /// The natural logarithm.
    ///
    /// Reduces `x = m · 2ᵉ` with `m` in (√½, √2], then
    /// `ln m = 2 atanh(s) = 2(s + s³/3 + s⁵/5 + …)` with `s = (m − 1)/(m + 1)`,
    /// `|s| ≤ 0.1716`; 12 terms leave a truncation error below 10⁻¹⁹.
    ///
    /// - Precondition: `x` positive and finite.
    /// - Complexity: O(1).
    static func log(_ x: Double) -> Double {
        precondition(x > 0 && x.isFinite, "PortableMath.log: \(x) is not positive and finite")
        var exponent = Double(Int(x.exponent))
        var mantissa = x.significand
        if mantissa > sqrt2 {
            mantissa *= 0.5
            exponent += 1
        }
        let s = (mantissa - 1) / (mantissa + 1)
        let s2 = s * s
        // Horner over 1 + s²/3 + s⁴/5 + … + s²²/23.
        var series = 1.0 / 23
        series = 1.0 / 21 + s2 * series
        series = 1.0 / 19 + s2 * series
        series = 1.0 / 17 + s2 * series
        series = 1.0 / 15 + s2 * series
        series = 1.0 / 13 + s2 * series
        series = 1.0 / 11 + s2 * series
        series = 1.0 / 9 + s2 * series
        series = 1.0 / 7 + s2 * series
        series = 1.0 / 5 + s2 * series
        series = 1.0 / 3 + s2 * series
        let lnMantissa = 2 * s + 2 * s * (s2 * series)
        return exponent * ln2High + (exponent * ln2Low + lnMantissa)
    }

    /// The exponential.
    ///
    /// Reduces `x = k ln 2 + r` with `|r| ≤ ln 2 / 2`, sums the Taylor series
    /// of `eʳ` to `r¹⁶/16!` (truncation below 10⁻²⁰), and scales by `2ᵏ`
    /// exactly. Overflows to `+∞` above 709.78 and underflows to 0 below −745.2.
    ///
    /// - Precondition: `x` is not NaN.
    /// - Complexity: O(1).
    static func exp(_ x: Double) -> Double {
        precondition(!x.isNaN, "PortableMath.exp: NaN")
        if x > 709.782_712_893_384 { return .infinity }
        if x < -745.2 { return 0 }
        let k = (x / (ln2High + ln2Low)).rounded()
        let r = (x - k * ln2High) - k * ln2Low
        var series = 1.0
        var n = 16.0
        while n >= 1 {
            series = 1 + r * series / n
            n -= 1
        }
        // Two steps, so that 2ᵏ itself never overflows or underflows when the
        // product is representable.
        let half = Int(k) / 2
        let scale = Double(sign: .plus, exponent: half, significand: 1)
        return Double(sign: .plus, exponent: Int(k) - half, significand: series) * scale
    }
}
