import Geometry
import Testing
@testable import Gestures

/// The detector's input decimator: what it passes must be the samples themselves up to ~110 Hz and the plain
/// means of consecutive samples above, grouped as its documentation says, computed here independently.
@Suite struct GestureInputDecimatorTests {
    /// Sample i of a stream at `hz`: a rate and a force that change with i, so a wrong grouping or a wrong
    /// mean shows.
    static func sample(_ i: Int, hz: Double) -> (t: Double, gyro: Vector3, accel: Vector3) {
        let x = Double(i)
        return (10 + x / hz, Vector3(0.1 * x, -0.02 * x * x, 1 - x), Vector3(x, 9.8, -0.5 * x))
    }

    func run(hz: Double, count: Int) -> [GestureInput] {
        var d = GestureInputDecimator()
        var out: [GestureInput] = []
        for i in 0..<count {
            let s = Self.sample(i, hz: hz)
            if let g = d.add(t: s.t, gyro: s.gyro, accel: s.accel) { out.append(g) }
        }
        return out
    }

    @Test(arguments: [25.0, 50, 100, 104])
    func streamsUpTo110HzPassSampleBySampleBitForBit(hz: Double) {
        let out = run(hz: hz, count: 300)
        #expect(out.count == 300)
        for (i, g) in out.enumerated() {
            let s = Self.sample(i, hz: hz)
            #expect(g == GestureInput(t: s.t, gyro: s.gyro, accel: s.accel))
        }
        // A −0 stays −0 (a sum starting from 0 would have made it +0).
        var d = GestureInputDecimator()
        let g = d.add(t: 1, gyro: Vector3(-0.0, 0, 0), accel: Vector3(0, 0, -0.0))
        #expect(g?.gyro.x.sign == .minus && g?.accel.z.sign == .minus)
    }

    /// 200 Hz in pairs, 286 Hz in threes, 1 kHz in tens (each group spans ≥ 1/110 s from the previous group's
    /// last sample); the first sample always alone. Each output is the mean of its group, at its mean time.
    @Test(arguments: [(200.0, 2), (2000.0 / 7, 3), (1000.0, 10)])
    func fasterStreamsAreMeansOfGroups(hz: Double, group: Int) {
        let out = run(hz: hz, count: 1 + 20 * group)
        #expect(out.count == 21)
        #expect(out.first?.t == Self.sample(0, hz: hz).t)
        for k in 1..<out.count {
            let members = (0..<group).map { Self.sample(1 + (k - 1) * group + $0, hz: hz) }
            let n = Double(group)
            let t = members.map(\.t).reduce(0, +) / n
            let gyro = members.map(\.gyro).reduce(.zero, +) / n
            let accel = members.map(\.accel).reduce(.zero, +) / n
            #expect(abs(out[k].t - t) <= 1e-12)
            #expect((out[k].gyro - gyro).max() <= 1e-12 && (gyro - out[k].gyro).max() <= 1e-12, "group \(k)")
            #expect((out[k].accel - accel).max() <= 1e-12 && (accel - out[k].accel).max() <= 1e-12, "group \(k)")
        }
        // The detector sees about 100 Hz: successive means are `group` samples apart.
        #expect(abs((out[5].t - out[4].t) - Double(group) / hz) <= 1e-9)
    }

    @Test func timeGoingBackDropsTheUnfinishedGroupAndPassesTheSampleAlone() {
        var d = GestureInputDecimator()
        let a = Vector3(0, 0, 9.8)
        #expect(d.add(t: 5.000, gyro: Vector3(1, 0, 0), accel: a) != nil)   // first: alone
        #expect(d.add(t: 5.001, gyro: Vector3(2, 0, 0), accel: a) == nil)   // group pending
        let restart = d.add(t: 1.000, gyro: Vector3(7, 0, 0), accel: a)
        #expect(restart?.t == 1.000 && restart?.gyro == Vector3(7, 0, 0))   // the pending 2 is not mixed in
    }

    @Test func aRepeatedTimeAddsNothing() {
        var d = GestureInputDecimator()
        let a = Vector3(0, 0, 9.8)
        _ = d.add(t: 0, gyro: .zero, accel: a)
        #expect(d.add(t: 0.004, gyro: Vector3(1, 0, 0), accel: a) == nil)
        #expect(d.add(t: 0.004, gyro: Vector3(100, 0, 0), accel: a) == nil)
        let g = d.add(t: 0.01, gyro: Vector3(3, 0, 0), accel: a)
        #expect(g?.gyro == Vector3(2, 0, 0))   // mean of 1 and 3; the repeat is left out
    }

    /// A corrupt sample spoils only its own group: the group's mean is not finite (the detector ignores such a
    /// sample), and the next group is clean. A non-finite time is refused outright.
    @Test func aNonFiniteSampleSpoilsOnlyItsGroup() {
        var d = GestureInputDecimator()
        let a = Vector3(0, 0, 9.8)
        _ = d.add(t: 0, gyro: .zero, accel: a)
        _ = d.add(t: 0.004, gyro: Vector3(.nan, 0, 0), accel: a)
        let spoilt = d.add(t: 0.01, gyro: Vector3(1, 0, 0), accel: a)
        #expect(spoilt.map { !$0.gyro.isFinite } == true)
        #expect(d.add(t: .nan, gyro: .zero, accel: a) == nil)
        _ = d.add(t: 0.014, gyro: Vector3(1, 0, 0), accel: a)
        let clean = d.add(t: 0.02, gyro: Vector3(3, 0, 0), accel: a)
        #expect(clean?.gyro == Vector3(2, 0, 0))
    }

    @Test func aZeroIntervalPassesEverySample() {
        var d = GestureInputDecimator(minimumInterval: 0)
        var passed = 0
        for i in 0..<1000 {
            let s = Self.sample(i, hz: 1000)
            if let g = d.add(t: s.t, gyro: s.gyro, accel: s.accel) {
                passed += 1
                #expect(g.gyro == s.gyro && g.t == s.t)
            }
        }
        #expect(passed == 1000)
    }
}
