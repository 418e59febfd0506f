import LibC

// atan2 for every direction without libm's call, for the attitude filter's large heading offsets, with libm's
// accuracy (tested against it over the circle). The compass keeps libm's: see docs/results/bench-vs-vqf.md.

/// atan2(y, x) in (−π, π], as libm gives it, ±0 and ±π by the sign of y included.
///
/// Range reduction: by symmetry the direction is first folded into the first octant, 0 ≤ s ≤ l (s, l the
/// smaller and the larger of |x| and |y|), so t = s / l is in [0, 1]. Then t is written as c + a remainder
/// with c the nearest multiple of 1/8: atan t = atan c + atan u with u = (s − c·l) / (l + c·s), |u| ≤ 1/16,
/// where the series of atan u to u¹³ is exact to rounding (the next term is below 1e-18 of the result).
/// atan c comes from a table of nine constants. Zero, infinite and NaN inputs go to libm (they never reach
/// it from the filter, but the answer stays libm's).
@inline(__always) func fastAtan2(_ y: Double, _ x: Double) -> Double {
    let ax = abs(x), ay = abs(y)
    let steep = ay > ax  // beyond 45° from the x axis: measure from the y axis instead
    let l = steep ? ay : ax, s = steep ? ax : ay
    guard l > 0, l < .infinity, s == s else { return atan2(y, x) }
    let eighths = roundedNonNegative(s / l * 8)  // 0 ... 8
    let c = Double(eighths) * 0.125
    let u = (s - c * l) / (l + c * s)
    var a = arctangentOfEighths(eighths) + arctangentSeries(u)
    if steep { a = .pi / 2 - a }
    if x < 0 { a = .pi - a }
    return y.sign == .minus ? -a : a
}

/// `v.rounded()` (to nearest, ties away from zero) for 0 ≤ v ≤ 2⁵², as an Int. `rounded()` is a call to libm's
/// `round` on x86-64 without SSE4.1 (the baseline this must run on); truncation is one instruction, and the
/// fraction v − trunc(v) is exact, so comparing it with ½ rounds exactly as `rounded()` does, ties included.
@inline(__always) func roundedNonNegative(_ v: Double) -> Int {
    let whole = Int(v)
    return v - Double(whole) >= 0.5 ? whole + 1 : whole
}

/// atan u for |u| ≤ 1/16, to the u¹³ term, in pairs of terms (Estrin's scheme: fewer dependent steps).
@inline(__always) func arctangentSeries(_ u: Double) -> Double {
    let u2 = u * u, u4 = u2 * u2, u8 = u4 * u4
    let p0 = 1 - u2 * (1.0 / 3), p1 = 1.0 / 5 - u2 * (1.0 / 7)
    let p2 = 1.0 / 9 - u2 * (1.0 / 11), p3 = 1.0 / 13
    return u * ((p0 + u4 * p1) + u8 * (p2 + u4 * p3))
}

/// atan(i / 8) for i in 0 ... 8 (correctly rounded doubles); a switch of constants, which the compiler turns
/// into a table lookup (a global array would need a lazy-initialisation check at every use).
@inline(__always) func arctangentOfEighths(_ i: Int) -> Double {
    switch i {
    case 0: return 0
    case 1: return 0.12435499454676144
    case 2: return 0.24497866312686414
    case 3: return 0.35877067027057225
    case 4: return 0.4636476090008061
    case 5: return 0.5585993153435624
    case 6: return 0.6435011087932844
    case 7: return 0.7188299996216245
    default: return 0.7853981633974483  // π/4
    }
}
