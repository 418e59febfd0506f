import Foundation  // String.range(of:) and replacingCharacters, in the extension below
import Testing
@testable import Formats

/// The board presets deploy installs as a first config must load with the daemon's own config reader and
/// name the GPIO chip each board really has (hardware-facts 2.3: the 40-pin header is on pinctrl-bcm2835 on the
/// Pi 3 and Zero 2 W, pinctrl-bcm2711 on the Pi 4, pinctrl-rp1 on the Pi 5) with the brief's default LED lines.
@Suite struct BoardPresetTests {
    static let boardDirectory = #filePath.replacingFirst("Tests/FormatsTests/BoardPresetTests.swift", with: "board")

    @Test(arguments: [("pi3b", "pinctrl-bcm2835"), ("zero2w", "pinctrl-bcm2835"),
                      ("pi4b", "pinctrl-bcm2711"), ("pi5", "pinctrl-rp1")])
    func presetLoadsAndNamesTheBoardsGPIOChip(preset: String, chip: String) throws {
        let config = try Config.load(path: "\(Self.boardDirectory)/presets/\(preset).json")
        #expect(config.gpioChip == chip)
        #expect(config.i2cDevice == "/dev/i2c-1")
        // nod, shake, north, up, down, left, right, status
        #expect(config.ledLines == [17, 27, 22, 23, 24, 25, 5, 6])
        #expect(config.activeLow == false)
    }
}

extension String {
    fileprivate func replacingFirst(_ a: String, with b: String) -> String {
        guard let r = range(of: a) else { return self }
        return replacingCharacters(in: r, with: b)
    }
}
