import Geometry
import Hardware
import Sensors
import Simulation
import Testing
@testable import Formats

/// Every fault kind the simulated bus and chips can produce, run through the real loop. For each: the loop
/// keeps running, nothing non-finite reaches the pipeline, every sample slot it could not read is marked with
/// a fault at its scheduled time, the fault is counted under its kind, the status LED blinks at 5 Hz while
/// the fault lasts (plus the 0.5 s hold) and beats again afterwards, and samples flow again within 100 ms
/// (simulated) of the fault clearing.
///
/// Windows start 2.5 ms after a 5 ms tick, so a 0.3 s window holds exactly 60 IMU ticks (200 Hz) and 30
/// magnetometer ticks (100 Hz), and no 10 Hz health check lands on its first tick.
@Suite struct FaultInjectionTests {
    static let offset = 1.0025
    static let length = 0.3
    static let imuTicks = 60
    static let magTicks = 30

    func window(_ start: Double) -> Range<Double> { (start + Self.offset)..<(start + Self.offset + Self.length) }

    /// What every scenario must show.
    func expectCommon(_ r: FaultRun, window w: Range<Double>, faultStartsAt detection: Double? = nil,
                      sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(r.nonFinite.isEmpty, "non-finite values: \(r.nonFinite.prefix(3))", sourceLocation: sourceLocation)
        let recovery = r.imuRecovery(after: w.upperBound)
        #expect(recovery != nil && recovery! <= 0.1, "IMU recovery \(String(describing: recovery)) s", sourceLocation: sourceLocation)
        #expect(r.faults(in: (w.upperBound + 0.1)..<r.end).isEmpty,
                "faults after recovery: \(r.faults(in: (w.upperBound + 0.1)..<r.end).prefix(3))", sourceLocation: sourceLocation)
        let blinkFrom = (detection ?? w.lowerBound) + 0.02
        #expect(r.statusShowsFault(during: blinkFrom..<(w.upperBound + 0.45)),
                "status flashes during the fault: \(r.statusFlashes(in: blinkFrom..<(w.upperBound + 0.45)))", sourceLocation: sourceLocation)
        let healthyFrom = w.upperBound + 0.5 + 0.1
        #expect(r.statusShowsHeartbeat(during: healthyFrom..<r.end), "status after: \(r.statusFlashes(in: healthyFrom..<r.end))",
                sourceLocation: sourceLocation)
        #expect(r.statusShowsHeartbeat(during: r.start..<w.lowerBound), sourceLocation: sourceLocation)
    }

    // MARK: Bus errors

    @Test(arguments: [
        (InjectedFault.noAcknowledge, "nack"), (.ioError, "io"), (.timeout, "timeout"), (.shortRead, "short"),
    ])
    func busErrorOnTheIMU(fault: InjectedFault, kind: String) throws {
        var w = 0.0..<0.0
        let r = try FaultHarness.run(imu: .mpu9250) { b, start in
            w = window(start)
            b.bus.faults.append((w.lowerBound, w.upperBound, 0x68, fault))
        }
        expectCommon(r, window: w)
        // Every IMU slot in the window is marked, once, and counted under its kind; nothing else went wrong.
        #expect(r.counters.kinds[kind] == Self.imuTicks)
        #expect(r.counters.others(than: [kind]).isEmpty, "\(r.counters.others(than: [kind]))")
        #expect(r.faults(in: w).count == Self.imuTicks)
        #expect(r.samples(in: w).isEmpty)
    }

    @Test func wholeBusDown() throws {
        var w = 0.0..<0.0
        let r = try FaultHarness.run(imu: .mpu9250) { b, start in
            w = window(start)
            b.bus.faults.append((w.lowerBound, w.upperBound, nil, .ioError))
        }
        expectCommon(r, window: w)
        #expect(r.counters.ioError == Self.imuTicks + Self.magTicks)
        #expect(r.counters.others(than: ["io"]).isEmpty)
        #expect(r.magRecovery(after: w.upperBound)! <= 0.1)
    }

    // MARK: Corrupted bytes

    @Test func corruptedBytesAreDroppedAndCounted() throws {
        // Ten single-sample corruptions of the 14-byte block, each flipping a high bit the bus cannot see:
        // AX/AZ high byte ^0x80 (4 g), GY high ^0x40 (250 °/s), AY ^0x40 (2 g), GZ ^0x80 (500 °/s).
        let flips: [(offset: Int, mask: UInt8)] = [(0, 0x80), (4, 0x80), (10, 0x40), (2, 0x40), (12, 0x80)]
        var times: [Double] = []
        let r = try FaultHarness.run(imu: .mpu9250) { b, start in
            for i in 0..<10 {
                let t = start + 1.0 + 0.05 * Double(i)  // a 5 ms tick
                times.append(t)
                let f = flips[i % flips.count]
                b.bus.faults.append((t - 0.001, t + 0.001, 0x68, .corruptedByte(register: 0x3B, offset: f.offset, mask: f.mask)))
            }
        }
        #expect(r.nonFinite.isEmpty)
        #expect(r.counters.corruptedSamples == 10)
        #expect(r.counters.others(than: ["corrupted"]).isEmpty, "\(r.counters.others(than: ["corrupted"]))")
        // Exactly the corrupted slots are marked; the sample right after each one is used again.
        let marked = r.faults.map(\.t)
        #expect(marked.count == 10 && zip(marked, times).allSatisfy { abs($0 - $1) < 1e-6 })
        for t in times { #expect(r.imuRecovery(after: t + 1e-6)! <= 0.0051) }
        // The filter never saw them: it ends where the same run without corruption ends (same noise seed).
        let clean = try FaultHarness.run(imu: .mpu9250) { _, _ in }
        let apart = (clean.finalAttitude.conjugate * r.finalAttitude).normalized.angle * 180 / Double.pi
        #expect(apart < 0.2, "\(apart)° from the clean run")
        #expect(FaultHarness.attitudeError(r.finalAttitude, truth: r.breakout.motion, at: r.end - 0.005) < 8)
        #expect(r.statusShowsFault(during: (times[0] + 0.02)..<(times[9] + 0.45)))
    }

    @Test func corruptedMagnetometerBytes() throws {
        var w = 0.0..<0.0
        let r = try FaultHarness.run(imu: .mpu9250) { b, start in
            w = window(start)
            // Every other magnetometer read in the window: HXH ^0x80 (a 4915 µT jump) or a spurious ST2.HOFL.
            for i in stride(from: 0, to: 30, by: 2) {
                let t = w.lowerBound + 0.0075 + 0.01 * Double(i)
                let fault: InjectedFault = i % 4 == 0 ? .corruptedByte(register: 0x02, offset: 2, mask: 0x80)
                    : .corruptedByte(register: 0x02, offset: 7, mask: 0x08)
                b.bus.faults.append((t - 0.001, t + 0.001, 0x0C, fault))
            }
        }
        #expect(r.nonFinite.isEmpty)
        #expect(r.counters.corruptedSamples == 8)
        #expect(r.counters.magneticOverflow == 7)
        #expect(r.counters.others(than: ["corrupted", "overflow"]).isEmpty)
        #expect(r.samples(in: w).count == Self.imuTicks)  // the IMU went on undisturbed
        #expect(r.magRecovery(after: w.upperBound)! <= 0.1)
    }

    // MARK: Power glitch: the chip vanishes and comes back reset

    @Test(arguments: [SimulatedIMUPart.mpu6050, .mpu6500, .mpu9250, .icm20948])
    func powerGlitchOfTheIMUPackage(part: SimulatedIMUPart) throws {
        var w = 0.0..<0.0
        let r = try FaultHarness.run(imu: part) { b, start in
            w = window(start)
            b.bus.powerGlitch(start: w.lowerBound, end: w.upperBound, addresses: b.imuPackageAddresses)
        }
        expectCommon(r, window: w)
        // Re-initialised once (the in-package magnetometer with it), right after it answered again.
        #expect(r.counters.chipResets == 1)
        #expect(r.reinitializations.count == 1)
        #expect(r.reinitializations.first.map { $0 - w.upperBound < 0.01 } == true)
        #expect(r.counters.noAcknowledge >= Self.imuTicks)
        #expect(r.counters.others(than: ["nack", "resets"]).isEmpty, "\(r.counters.others(than: ["nack", "resets"]))")
        if part != .mpu6050 && part != .mpu6500 {
            let magRecovery = r.magRecovery(after: w.upperBound)
            #expect(magRecovery != nil && magRecovery! <= 0.1, "magnetometer recovery \(String(describing: magRecovery))")
        }
    }

    @Test(arguments: [SimulatedMagnetometerPart.qmc5883l, .hmc5883l])
    func powerGlitchOfAStandaloneMagnetometer(part: SimulatedMagnetometerPart) throws {
        var w = 0.0..<0.0
        let r = try FaultHarness.run(imu: .mpu6500, magnetometer: part) { b, start in
            w = window(start)
            b.bus.powerGlitch(start: w.lowerBound, end: w.upperBound, addresses: [part == .qmc5883l ? 0x0D : 0x1E])
        }
        expectCommon(r, window: w)
        #expect(r.counters.chipResets == 1)
        #expect(r.counters.noAcknowledge == Self.magTicks)
        #expect(r.samples(in: w).count == Self.imuTicks)
        #expect(r.magRecovery(after: w.upperBound)! <= 0.1)
    }

    @Test(arguments: [SimulatedIMUPart.mpu6050, .mpu9250, .icm20948])
    func silentResetIsCaughtByTheHealthCheck(part: SimulatedIMUPart) throws {
        // A brown-out too short to miss a transfer: the chip is simply back at its reset values.
        var at = 0.0
        let r = try FaultHarness.run(imu: part) { b, start in
            at = start + 1.0025
            b.bus.powerGlitch(start: at, end: at, addresses: b.imuPackageAddresses)
        }
        #expect(r.nonFinite.isEmpty)
        #expect(r.counters.chipResets == 1)
        let reinit = try #require(r.reinitializations.first)
        #expect(reinit - at <= 0.1, "re-initialised \(reinit - at) s after the reset")
        #expect(r.imuRecovery(after: reinit)! <= 0.1)
        #expect(r.faults(in: (reinit + 0.1)..<r.end).isEmpty)
    }

    // MARK: Frozen data registers

    @Test func frozenIMUDataIsDetected() throws {
        var w = 0.0..<0.0
        let r = try FaultHarness.run(imu: .mpu9250) { b, start in
            w = (start + Self.offset)..<(start + Self.offset + 0.5)
            b.bus.faults.append((w.lowerBound, w.upperBound, 0x68, .frozen(register: 0x3B)))
        }
        // 100 reads in the window; the 20th identical one in a row is the first fault (95 ms after the freeze).
        let firstFault = try #require(r.faults.first?.t)
        #expect(firstFault - w.lowerBound <= 0.1)
        expectCommon(r, window: w, faultStartsAt: firstFault)
        #expect(r.counters.frozenData == 100 - 19)
        #expect(r.counters.others(than: ["frozen"]).isEmpty)
    }

    @Test func frozenMagnetometerDataIsDetected() throws {
        var w = 0.0..<0.0
        let r = try FaultHarness.run(imu: .mpu9250) { b, start in
            w = (start + Self.offset)..<(start + Self.offset + 0.5)
            b.bus.faults.append((w.lowerBound, w.upperBound, 0x0C, .frozen(register: 0x02)))  // ST1..ST2 block
        }
        let firstFault = try #require(r.faults.first?.t)
        #expect(firstFault - w.lowerBound <= 0.1)
        expectCommon(r, window: w, faultStartsAt: firstFault)
        #expect(r.counters.frozenData == 50 - 9)
        #expect(r.magRecovery(after: w.upperBound)! <= 0.1)
    }

    // MARK: Magnetometer overflow and overrun

    @Test(arguments: [
        (SimulatedIMUPart.mpu9250, SimulatedMagnetometerPart?.none, 30), (.icm20948, nil, 30),
        (.mpu6500, .qmc5883l, 30), (.mpu6500, .hmc5883l, 30),
    ])
    func magnetOverflowsTheMagnetometer(imu: SimulatedIMUPart, magnetometer: SimulatedMagnetometerPart?, reads: Int) throws {
        var w = 0.0..<0.0
        let r = try FaultHarness.run(imu: imu, magnetometer: magnetometer) { b, start in
            w = window(start)
            let magnet = (w.lowerBound, w.upperBound, Vector3(6000, 0, 6000))
            b.mpu9250?.sensor.magneticDisturbance = magnet
            b.icm20948?.sensor.magneticDisturbance = magnet
            b.qmc5883l?.sensor.magneticDisturbance = magnet
            b.hmc5883l?.sensor.magneticDisturbance = magnet
        }
        expectCommon(r, window: w)
        // One overflow per magnetometer read inside the window (each one finds the data invalid).
        #expect(abs(r.counters.magneticOverflow - reads) <= 2, "\(r.counters.magneticOverflow) overflows")
        #expect(r.counters.others(than: ["overflow"]).isEmpty, "\(r.counters.others(than: ["overflow"]))")
        #expect(r.samples(in: w).count == Self.imuTicks)
        #expect(r.magRecovery(after: w.upperBound)! <= 0.1)
    }

    @Test func readingTheMagnetometerTooSlowlyIsCountedAsOverrun() throws {
        var config = Config()
        config.rates.magHz = 50  // the AK8963 measures at 100 Hz: every read finds a skipped measurement
        let r = try FaultHarness.run(imu: .mpu9250, config: config, duration: 2) { _, _ in }
        #expect(r.nonFinite.isEmpty)
        #expect(r.counters.total == 0)
        #expect(r.counters.magnetometerOverruns >= 95 && r.counters.magnetometerOverruns <= 100)
        #expect(r.statusShowsHeartbeat(during: r.start..<r.end))
    }

    @Test func overrunAfterAMissedRead() throws {
        var w = 0.0..<0.0
        let r = try FaultHarness.run(imu: .mpu9250) { b, start in
            w = window(start)
            b.bus.faults.append((w.lowerBound, w.upperBound, 0x0C, .timeout))
        }
        expectCommon(r, window: w)
        #expect(r.counters.timeout == Self.magTicks)
        #expect(r.counters.magnetometerOverruns == 1)
        #expect(r.magRecovery(after: w.upperBound)! <= 0.1)
    }
}
