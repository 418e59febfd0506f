/// Fixed-point decimal formatting without Foundation ("%.3f").
public func fixed(_ value: Double, _ digits: Int) -> String {
    guard value.isFinite else { return value.isNaN ? "nan" : (value > 0 ? "inf" : "-inf") }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let negative = value < 0
    let scaled = (abs(value) * scale).rounded()
    if scaled >= 9.0e18 { return String(value) }
    let n = UInt64(scaled)
    let p = UInt64(scale)
    var integer = String(n / p)
    if negative && n != 0 { integer = "-" + integer }
    if digits == 0 { return integer }
    var fraction = String(n % p)
    while fraction.count < digits { fraction = "0" + fraction }
    return integer + "." + fraction
}
