// swift-tools-version:6.0
// headtrack: IMU head tracker for Raspberry Pi-class boards.
// Layers, bottom to top (nothing imports anything above it):
//   CLinux -> Hardware -> Sensors -> Fusion / Gestures / Indicators -> Simulation -> Runtime -> Evaluation -> Commands -> headtrack
import PackageDescription

// Release builds specialise the generic hot path (driver over its bus, loop over bus, lines and clock)
// across modules; without it each sample pays generic-metadata lookups (`headtrack bench`: decode 330 → 27 ns).
let strict: [SwiftSetting] = [.swiftLanguageMode(.v6),
                              .unsafeFlags(["-cross-module-optimization"], .when(configuration: .release))]

let package = Package(
    name: "headtrack",
    products: [
        .executable(name: "headtrack", targets: ["headtrack"]),
    ],
    targets: [
        // C shim: kernel uAPI headers and libi2c (Debian libi2c-dev), linked statically so the binary that
        // travels to the board needs no libi2c0 there.
        .target(name: "CLinux", linkerSettings: [.linkedLibrary(":libi2c.a")]),
        // C: SCHED_FIFO / affinity / mlockall helpers and the reference loop `bench` compares the scheduler with.
        .target(name: "CRealtime"),
        // C: counting malloc interposer (glibc only), so `bench` counts heap allocations per loop iteration.
        .target(name: "CAllocCounter"),
        // The release version and git commit, generated before each build (headtrack --version, deploy's names).
        .plugin(name: "BuildStamp", capability: .buildTool()),
        .target(name: "BuildInfo", swiftSettings: strict, plugins: ["BuildStamp"]),
        .target(name: "Hardware", dependencies: ["CLinux"], swiftSettings: strict),
        .target(name: "Fusion", swiftSettings: strict),
        .target(name: "Sensors", dependencies: ["Hardware", "Fusion"], swiftSettings: strict),
        .target(name: "Gestures", dependencies: ["Fusion"], swiftSettings: strict),
        .target(name: "Indicators", dependencies: ["Fusion"], swiftSettings: strict),
        .target(name: "Simulation", dependencies: ["Hardware", "Sensors", "Fusion"], swiftSettings: strict),
        .target(name: "Runtime",
                dependencies: ["Hardware", "Sensors", "Fusion", "Gestures", "Indicators", "CRealtime"],
                swiftSettings: strict),
        .target(name: "Evaluation",
                dependencies: ["Fusion", "Gestures", "Indicators", "Runtime", "Simulation", "Sensors",
                               "CRealtime", "CAllocCounter"],
                swiftSettings: strict),
        .target(name: "Commands",
                dependencies: ["BuildInfo", "Hardware", "Sensors", "Fusion", "Gestures", "Indicators",
                               "Simulation", "Runtime", "Evaluation"],
                swiftSettings: strict),
        .executableTarget(name: "headtrack", dependencies: ["Commands"], swiftSettings: strict),

        .testTarget(name: "HardwareTests", dependencies: ["Hardware"], swiftSettings: strict),
        .testTarget(name: "FusionTests", dependencies: ["Fusion"], swiftSettings: strict),
        .testTarget(name: "SensorsTests", dependencies: ["Sensors", "Simulation"], swiftSettings: strict),
        .testTarget(name: "GesturesTests", dependencies: ["Gestures", "Fusion", "Sensors", "Runtime", "Evaluation"],
                    resources: [.copy("Fixtures")], swiftSettings: strict),
        .testTarget(name: "IndicatorsTests", dependencies: ["Indicators"], swiftSettings: strict),
        .testTarget(name: "SimulationTests", dependencies: ["Simulation"], swiftSettings: strict),
        .testTarget(name: "RuntimeTests", dependencies: ["Runtime", "Simulation"],
                    resources: [.copy("Fixtures")], swiftSettings: strict),
        .testTarget(name: "EvaluationTests", dependencies: ["Evaluation"], resources: [.copy("Fixtures")], swiftSettings: strict),
        .testTarget(name: "CommandsTests", dependencies: ["Commands"], swiftSettings: strict),
    ]
)
