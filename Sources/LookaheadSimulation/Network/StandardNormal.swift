/// The standard normal distribution's quantile function.
enum StandardNormal {
    /// The 0.99 quantile, z₀.₉₉: a log-normal's p99 is `median · e^(σ z₀.₉₉)`.
    static let z99 = 2.326_347_874_040_840_8

    /// The inverse of the standard normal CDF: the `z` with `Φ(z) = p`.
    ///
    /// Wichura's algorithm AS 241 (PPND16, Applied Statistics 37(3), 1988):
    /// rational approximations of degree 7 on three ranges, relative accuracy
    /// about 10⁻¹⁶ — the tests hold it to 10⁻¹⁰ against `erfc`. Chosen over
    /// Acklam's approximation (10⁻⁹, needs a Newton step with `erfc` to do
    /// better) because it needs nothing but `log` and `squareRoot`, both of
    /// which are portable here (see ``PortableMath``).
    ///
    /// - Precondition: `0 < p < 1`.
    /// - Complexity: O(1).
    static func quantile(_ p: Double) -> Double {
        precondition(p > 0 && p < 1, "StandardNormal.quantile: \(p) is not in (0, 1)")
        let q = p - 0.5
        if abs(q) <= 0.425 {
            let r = 0.180_625 - q * q
            let numerator = polynomial(
                r, 3.387_132_872_796_366_608_0, 1.331_416_678_917_843_774_5e+2, 1.971_590_950_306_551_442_7e+3,
                1.373_169_376_550_946_112_5e+4, 4.592_195_393_154_987_145_7e+4, 6.726_577_092_700_870_085_3e+4,
                3.343_057_558_358_812_810_5e+4, 2.509_080_928_730_122_672_7e+3)
            let denominator = polynomial(
                r, 1, 4.231_333_070_160_091_125_2e+1, 6.871_870_074_920_579_083_0e+2, 5.394_196_021_424_751_107_7e+3,
                2.121_379_430_158_659_586_7e+4, 3.930_789_580_009_271_061_0e+4, 2.872_908_573_572_194_267_4e+4,
                5.226_495_278_852_854_561_0e+3)
            return q * numerator / denominator
        }
        // 1 − p is exact for p ≥ ½ (Sterbenz), so the upper tail loses nothing.
        var r = (-PortableMath.log(q < 0 ? p : 1 - p)).squareRoot()
        let value: Double
        if r <= 5 {
            r -= 1.6
            let numerator = polynomial(
                r, 1.423_437_110_749_683_577_34, 4.630_337_846_156_545_295_90, 5.769_497_221_460_691_405_50,
                3.647_848_324_763_204_605_04, 1.270_458_252_452_368_382_58, 2.417_807_251_774_506_117_70e-1,
                2.272_384_498_926_918_458_33e-2, 7.745_450_142_783_414_076_40e-4)
            let denominator = polynomial(
                r, 1, 2.053_191_626_637_758_821_87, 1.676_384_830_183_803_849_40, 6.897_673_349_851_000_045_50e-1,
                1.481_039_764_274_800_745_90e-1, 1.519_866_656_361_645_719_66e-2, 5.475_938_084_995_344_946_00e-4,
                1.050_750_071_644_416_843_24e-9)
            value = numerator / denominator
        } else {
            r -= 5
            let numerator = polynomial(
                r, 6.657_904_643_501_103_777_20, 5.463_784_911_164_114_369_90, 1.784_826_539_917_291_335_80,
                2.965_605_718_285_048_912_30e-1, 2.653_218_952_657_612_309_30e-2, 1.242_660_947_388_078_438_60e-3,
                2.711_555_568_743_487_578_15e-5, 2.010_334_399_292_288_132_65e-7)
            let denominator = polynomial(
                r, 1, 5.998_322_065_558_879_376_90e-1, 1.369_298_809_227_358_053_10e-1, 1.487_536_129_085_061_485_25e-2,
                7.868_691_311_456_132_591_00e-4, 1.846_318_317_510_054_681_80e-5, 1.421_511_758_316_445_888_70e-7,
                2.044_263_103_389_939_785_64e-15)
            value = numerator / denominator
        }
        return q < 0 ? -value : value
    }

    /// `c0 + c1·x + … + c7·x⁷`, by Horner's rule.
    @inline(__always)
    private static func polynomial(
        _ x: Double, _ c0: Double, _ c1: Double, _ c2: Double, _ c3: Double, _ c4: Double, _ c5: Double,
        _ c6: Double, _ c7: Double
    ) -> Double {
        var value = c7
        value = value * x + c6
        value = value * x + c5
        value = value * x + c4
        value = value * x + c3
        value = value * x + c2
        value = value * x + c1
        return value * x + c0
    }
}
