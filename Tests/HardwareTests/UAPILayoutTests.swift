import CLinux
import Testing
@testable import Hardware

/// The kernel's GPIO uAPI v2 and i2c-dev numbers, as measured from Debian 12's linux-libc-dev 6.1 headers
/// (hardware-facts §2.4). If the shim were compiled against a different layout, requests would be garbage.
@Suite struct UAPILayoutTests {
    @Test func gpioStructSizesMatchTheKernel() {
        #expect(ht_gpio_line_request_size() == 592)
        #expect(ht_gpio_line_values_size() == 16)
    }

    @Test func gpioIoctlNumbersMatchTheKernel() {
        #expect(ht_gpio_v2_get_line_ioctl() == 0xC250_B407)
        #expect(ht_gpio_v2_set_values_ioctl() == 0xC010_B40F)
    }
}

@Suite struct ErrorMessageTests {
    @Test func missingBusSaysHowToEnableI2C() {
        #expect(throws: I2CError.cannotOpen(path: "/dev/i2c-99", errno: 2)) { _ = try LinuxI2CBus(path: "/dev/i2c-99") }
        let text = I2CError.cannotOpen(path: "/dev/i2c-99", errno: 2).description
        #expect(text.contains("dtparam=i2c_arm=on"))
        #expect(text.contains("i2c-dev"))
    }

    @Test func kernelErrnosMapToFaultKinds() {
        #expect(I2CError.from(errno: 6, address: 0x68) == .noAcknowledge(address: 0x68))    // ENXIO
        #expect(I2CError.from(errno: 121, address: 0x68) == .noAcknowledge(address: 0x68))  // EREMOTEIO
        #expect(I2CError.from(errno: 110, address: 0x68) == .timeout(address: 0x68))        // ETIMEDOUT
        #expect(I2CError.from(errno: 5, address: 0x68) == .transferFailed(address: 0x68, errno: 5))
    }

    @Test func unknownGPIOChipNamesTheLabels() {
        #expect(throws: GPIOError.chipNotFound("no-such-chip")) { _ = try LinuxGPIOLines(chip: "no-such-chip", offsets: [17]) }
        #expect(GPIOError.chipNotFound("x").description.contains("pinctrl-rp1"))
    }

    @Test func hexFormatting() {
        #expect(hex(0x0C) == "0x0c")
        #expect(hex(0xEA) == "0xea")
    }
}
