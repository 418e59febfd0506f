import Geometry
import Hardware

/// FIFO readout of the InvenSense MPU family (MPU-6050/6500/9250/9255 and register-compatible parts): the
/// chip samples on its own clock into a FIFO that the host drains, so samples are neither lost nor timed
/// by the host's wake-ups. Registers (RM-MPU-9250A-00 §4.7 FIFO_EN, §4.18–4.19 INT_ENABLE/INT_STATUS,
/// §4.29 USER_CTRL, §4.36–4.37 FIFO_COUNT/FIFO_R_W; RM-MPU-6000A-00 likewise; hardware-facts §1.0).
public struct InvenSenseFIFO: Sendable, Equatable {
    /// FIFO_EN: ACCEL (bit 3) + XG, YG, ZG (bits 6..4): each sample is 12 bytes AX AY AZ GX GY GZ
    /// (big-endian int16, register order 0x3B→0x48 without the temperature).
    public static let accelAndGyro: UInt8 = 0x78
    public static let frameSize = 12
    /// USER_CTRL FIFO_EN (bit 6) and FIFO_RST (bit 2, clears itself).
    public static let userControlEnable: UInt8 = 0x40
    public static let userControlReset: UInt8 = 0x04
    /// INT_ENABLE / INT_STATUS: RAW_DATA_RDY (bit 0) and FIFO_OFLOW (bit 4).
    public static let rawDataReady: UInt8 = 0x01
    public static let overflow: UInt8 = 0x10
    /// At most this many frames per transaction: an SMBus block read carries 32 bytes.
    public static let framesPerRead = 2

    /// 512 bytes on the 6500/9250/9255, 1024 on the 6050/9150.
    public let capacity: Int
    /// The chip's sample period: (1 + SMPLRT_DIV) ms at the 1 kHz internal rate the DLPF setting selects.
    public let samplePeriod: Nanoseconds
    let accelScale: Double
    let gyroScale: Double

    public init(capacity: Int, sampleRateDivider: UInt8, accelRange: AccelRange, gyroRange: GyroRange) {
        self.capacity = capacity
        samplePeriod = (Nanoseconds(sampleRateDivider) + 1) * 1_000_000
        accelScale = Units.standardGravity / accelRange.lsbPerG
        gyroScale = Units.radiansPerDegree / gyroRange.lsbPerDegreePerSecond
    }

    /// The FIFO of a chip configured with `configuration` (its sample rate and full-scale ranges).
    init(capacity: Int, configuration: InvenSenseConfiguration) {
        self.init(capacity: capacity, sampleRateDivider: configuration.sampleRateDivider,
                  accelRange: configuration.settings.accelRange, gyroRange: configuration.settings.gyroRange)
    }

    /// True when the count shows data was dropped: whole frames stop at ⌊capacity / 12⌋ × 12 bytes (504 of
    /// 512), so anything above means the chip overwrote the oldest bytes and the frame boundaries are lost
    /// (the FIFO then sits at its capacity). Recovery is a FIFO reset.
    public func countShowsOverflow(_ count: Int) -> Bool {
        count > (capacity / InvenSenseFIFO.frameSize) * InvenSenseFIFO.frameSize
    }

    /// Switches an initialised chip to FIFO readout: accelerometer + gyroscope go into the FIFO at the sample
    /// rate. To learn the phase of the chip's sample clock it polls INT_STATUS.RAW_DATA_RDY (`sleep` between
    /// polls) and resets the FIFO right after a fresh sample, so the first FIFO sample comes one period later.
    /// Returns that estimated time, good to about half a poll interval plus one bus transfer.
    public func start<Bus: I2CBus>(bus: inout Bus, address: UInt8, now: () -> Nanoseconds,
                                   sleep: (Nanoseconds) -> Void) throws(SensorError) -> Nanoseconds {
        func write(_ register: UInt8, _ value: UInt8) throws(SensorError) {
            do { try bus.writeRegister(address: address, register: register, value: value) } catch { throw .bus(error) }
        }
        try write(MPU9250Register.fifoEnable, 0)
        try write(MPU9250Register.userControl, InvenSenseFIFO.userControlReset)  // off and empty; I2C_MST_EN stays 0
        try write(MPU9250Register.intEnable, InvenSenseFIFO.rawDataReady | InvenSenseFIFO.overflow)
        try write(MPU9250Register.fifoEnable, InvenSenseFIFO.accelAndGyro)
        _ = try readStatus(bus: &bus, address: address)  // clears stale flags
        let step = max(20_000, samplePeriod / 32)
        var previousPoll = now()
        let giveUp = previousPoll + 3 * samplePeriod
        var sampleSeen: Nanoseconds? = nil
        while sampleSeen == nil && previousPoll < giveUp {
            sleep(previousPoll + step)
            let before = now()
            let status = try readStatus(bus: &bus, address: address)
            let after = now()
            // The sample fell after the previous poll and before this one finished: take the middle.
            if status & InvenSenseFIFO.rawDataReady != 0 { sampleSeen = previousPoll + (after - previousPoll) / 2 }
            previousPoll = before
        }
        try write(MPU9250Register.userControl, InvenSenseFIFO.userControlEnable | InvenSenseFIFO.userControlReset)
        // No data-ready flag (a chip that is not sampling): start from now; the drain bounds will correct it.
        return (sampleSeen ?? now()) + samplePeriod
    }

    /// Bytes waiting in the FIFO. One 2-byte read from FIFO_COUNTH: reading the high byte latches both.
    public func readCount<Bus: I2CBus>(bus: inout Bus, address: UInt8) throws(SensorError) -> Int {
        var raw: UInt16 = 0
        do {
            try withUnsafeMutableBytes(of: &raw) { (bytes) throws(I2CError) in
                try bus.readRegisters(address: address, register: MPU9250Register.fifoCountHigh,
                                      into: bytes.bindMemory(to: UInt8.self))
            }
        } catch { throw .bus(error) }
        return withUnsafeBytes(of: &raw) { b in Int(b[0] & 0x1F) << 8 | Int(b[1]) }  // 13-bit count
    }

    /// Reads `frames` (at most 2 are taken) samples from FIFO_R_W in one transaction (the register does not
    /// auto-increment: each byte read pops the FIFO). SI units, chip frame; the FIFO carries no temperature.
    public func readSamples<Bus: I2CBus>(bus: inout Bus, address: UInt8, frames: Int) throws(SensorError) -> FIFOSamples {
        let n = min(max(frames, 1), InvenSenseFIFO.framesPerRead)
        var raw = (UInt64(0), UInt64(0), UInt64(0))  // 24 bytes of stack storage
        do {
            try withUnsafeMutableBytes(of: &raw) { (bytes) throws(I2CError) in
                let b = UnsafeMutableBufferPointer(rebasing: bytes.bindMemory(to: UInt8.self)[0..<(n * InvenSenseFIFO.frameSize)])
                try bus.readRegisters(address: address, register: MPU9250Register.fifoReadWrite, into: b)
            }
        } catch { throw .bus(error) }
        var samples = FIFOSamples()
        samples.count = n
        withUnsafeBytes(of: &raw) { b in
            samples.first = decode(b, at: 0)
            if n > 1 { samples.second = decode(b, at: InvenSenseFIFO.frameSize) }
        }
        return samples
    }

    /// Empties the FIFO (the chip keeps sampling) and clears the overflow flag: the way back after an
    /// overflow, when the byte stream has lost its frame boundaries.
    public func reset<Bus: I2CBus>(bus: inout Bus, address: UInt8) throws(SensorError) {
        do {
            try bus.writeRegister(address: address, register: MPU9250Register.userControl,
                                  value: InvenSenseFIFO.userControlEnable | InvenSenseFIFO.userControlReset)
        } catch { throw .bus(error) }
        _ = try readStatus(bus: &bus, address: address)
    }

    /// INT_STATUS (reading clears it): bit 4 set means the FIFO overflowed since the last read.
    public func readStatus<Bus: I2CBus>(bus: inout Bus, address: UInt8) throws(SensorError) -> UInt8 {
        do { return try bus.readRegister(address: address, register: MPU9250Register.intStatus) } catch { throw .bus(error) }
    }

    /// One 12-byte frame: AX AY AZ GX GY GZ, big-endian.
    func decode(_ b: UnsafeRawBufferPointer, at offset: Int) -> ImuSample {
        func be(_ i: Int) -> Double { Double(Int16(bitPattern: UInt16(b[offset + i]) << 8 | UInt16(b[offset + i + 1]))) }
        return ImuSample(accel: Vector3(be(0), be(2), be(4)) * accelScale, gyro: Vector3(be(6), be(8), be(10)) * gyroScale)
    }
}

/// Up to `InvenSenseFIFO.framesPerRead` samples from one FIFO transaction, in order, without an array.
public struct FIFOSamples: Sendable {
    public var count = 0
    public var first = ImuSample(accel: .zero, gyro: .zero)
    public var second = ImuSample(accel: .zero, gyro: .zero)
    public init() {}
    public subscript(i: Int) -> ImuSample { i == 0 ? first : second }
}

// MARK: Which chips have it

extension IMUDevice {
    /// The FIFO readout of this chip, nil where it is not supported (the ICM-20948's FIFO sits in another
    /// register bank with another layout: it is polled).
    public var fifo: InvenSenseFIFO? {
        switch self {
        case let .invenSense(core): return InvenSenseFIFO(capacity: core.part.fifoCapacity, configuration: core.configuration)
        case .icm20948: return nil
        }
    }

    /// Runs `body` with the chip's bus and address (for register protocols kept outside the drivers).
    @inline(__always)
    public mutating func withBus<R>(_ body: (inout Bus, UInt8) throws(SensorError) -> R) throws(SensorError) -> R {
        switch self {
        case var .invenSense(core): defer { self = .invenSense(core) }; return try body(&core.bus, core.address)
        case var .icm20948(d): defer { self = .icm20948(d) }; return try body(&d.bus, d.address)
        }
    }
}
