// swift-tools-version:6.0
// headtrack: IMU head tracker for Raspberry Pi-class boards.
// Layers, bottom to top. A target imports only targets on lines above its own; targets on one line are peers and
// do not import each other. Tests/LayerTests checks every `import` in Sources against this list, so keep it true.
// layer: CLinux, CRealtime, CAllocCounter, Geometry
// layer: Hardware
// layer: Sensors
// layer: Fusion, Gestures, Indicators
// layer: Simulation
// layer: Runtime
// layer: Evaluation
// layer: Commands
// layer: headtrack
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
        // Vectors, matrices, quaternions, units, angles and the mount: the floor every other layer stands on.
        .target(name: "Geometry", swiftSettings: strict),
        .target(name: "Hardware", dependencies: ["CLinux"], swiftSettings: strict),
        .target(name: "Fusion", dependencies: ["Geometry"], swiftSettings: strict),
        .target(name: "Sensors", dependencies: ["Hardware", "Geometry"], swiftSettings: strict),
        .target(name: "Gestures", dependencies: ["Geometry"], swiftSettings: strict),
        .target(name: "Indicators", dependencies: ["Geometry"], swiftSettings: strict),
        .target(name: "Simulation", dependencies: ["Hardware", "Sensors", "Geometry"], swiftSettings: strict),
        .target(name: "Runtime",
                dependencies: ["Hardware", "Sensors", "Geometry", "Fusion", "Gestures", "Indicators", "CRealtime"],
                swiftSettings: strict),
        .target(name: "Evaluation",
                dependencies: ["Geometry", "Fusion", "Gestures", "Indicators", "Runtime", "Simulation", "Sensors",
                               "CRealtime", "CAllocCounter"],
                swiftSettings: strict),
        .target(name: "Commands",
                dependencies: ["Hardware", "Sensors", "Geometry", "Fusion", "Gestures", "Indicators",
                               "Simulation", "Runtime", "Evaluation"],
                swiftSettings: strict),
        .executableTarget(name: "headtrack", dependencies: ["Commands"], swiftSettings: strict),

        // Reads Package.swift and Sources as text (no target dependencies): the layer list above must hold.
        .testTarget(name: "LayerTests", swiftSettings: strict),
        .testTarget(name: "GeometryTests", dependencies: ["Geometry"], swiftSettings: strict),
        .testTarget(name: "HardwareTests", dependencies: ["Hardware"], swiftSettings: strict),
        .testTarget(name: "FusionTests", dependencies: ["Fusion", "Geometry"], swiftSettings: strict),
        .testTarget(name: "SensorsTests", dependencies: ["Sensors", "Simulation", "Geometry"], swiftSettings: strict),
        .testTarget(name: "GesturesTests", dependencies: ["Gestures", "Geometry", "Fusion", "Sensors", "Runtime", "Evaluation"],
                    resources: [.copy("Fixtures")], swiftSettings: strict),
        .testTarget(name: "IndicatorsTests", dependencies: ["Indicators", "Geometry"], swiftSettings: strict),
        .testTarget(name: "SimulationTests", dependencies: ["Simulation", "Geometry"], swiftSettings: strict),
        .testTarget(name: "RuntimeTests", dependencies: ["Runtime", "Simulation", "Geometry"],
                    resources: [.copy("Fixtures")], swiftSettings: strict),
        .testTarget(name: "EvaluationTests", dependencies: ["Evaluation", "Geometry"], resources: [.copy("Fixtures")], swiftSettings: strict),
        .testTarget(name: "CommandsTests", dependencies: ["Commands", "Geometry"], swiftSettings: strict),
    ]
)
