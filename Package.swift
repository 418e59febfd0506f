// swift-tools-version:6.0
// headtrack: IMU head tracker for Raspberry Pi-class boards.
// Layers, bottom to top. A target imports only targets on lines above its own; targets on one line are peers and
// do not import each other. Tests/LayerTests checks every `import` in Sources against this list, so keep it true.
// layer: LibC, CLinux, CRealtime, CBench, CAllocCounter, BuildInfo
// layer: Geometry, ViewPage, PlainText
// layer: Hardware
// layer: Sensors
// layer: Fusion, SensorCalibration, MountLearning, Gestures, Indicators
// layer: Tracking, Simulation
// layer: Formats, Cohorts
// layer: EventStream, BrowserView
// layer: Service
// layer: Plots, SimulatedRuns
// layer: Commands, Evaluation, GestureMetrics, Benchmarks
// layer: LabCommands
// layer: headtrack, headtrack-lab, HeadtrackFuzz, TestSupport
// Two products: `headtrack`, the daemon that travels to the headset (run, probe, calibrate, record, replay, demo),
// and `headtrack-lab` (bench, eval), the only one that links Evaluation, GestureMetrics,
// Benchmarks, CBench and the malloc counter.
import PackageDescription

// Release builds specialise the generic hot path (driver over its bus, loop over bus, lines and clock)
// across modules; without it each sample pays generic-metadata lookups (`headtrack bench`: decode 330 → 27 ns).
let strict: [SwiftSetting] = [.swiftLanguageMode(.v6),
                              .unsafeFlags(["-cross-module-optimization"], .when(configuration: .release))]
// The attitude filter's scalar math is left unpaired: the shuffles that LLVM's SLP vectorizer needs cost the
// filter time on x86-64 (docs/results/bench-vs-vqf.md). Pairing reorders no arithmetic, so the outputs are the same.
let fusionSettings: [SwiftSetting] = strict + [.unsafeFlags(["-Xllvm", "-vectorize-slp=false"], .when(configuration: .release))]

let package = Package(
    name: "headtrack",
    products: [
        .executable(name: "headtrack", targets: ["headtrack"]),
        .executable(name: "headtrack-lab", targets: ["headtrack-lab"]),
    ],
    targets: [
        // C shim: kernel uAPI headers and libi2c (Debian libi2c-dev), linked statically so the binary that
        // travels to the board needs no libi2c0 there.
        .target(name: "CLinux", linkerSettings: [.linkedLibrary(":libi2c.a")]),
        // C: SCHED_FIFO / affinity / mlockall helpers for the tracker loop.
        .target(name: "CRealtime"),
        // C, lab only: the reference loop `bench` compares the scheduler with, and peak-RSS measurement.
        .target(name: "CBench"),
        // C, lab only: counting malloc interposer (glibc only), so `bench` counts heap allocations per loop
        // iteration. Linked into the daemon it would intercept every allocation of the service.
        .target(name: "CAllocCounter"),
        // The release version and git commit, generated before each build (headtrack --version, deploy's names).
        .plugin(name: "BuildStamp", capability: .buildTool()),
        .target(name: "BuildInfo", swiftSettings: strict, plugins: ["BuildStamp"]),
        // The C library (glibc or musl), imported in one place.
        .target(name: "LibC", swiftSettings: strict),
        // The page `headtrack view` serves (HTML, CSS, JavaScript and icon as string literals), kept in the
        // binary; nothing but the text, so the server's code is read apart from it.
        .target(name: "ViewPage", swiftSettings: strict),
        // Plain text, at the bottom: JSON reading and writing, fixed-capacity line buffers and the line splitter,
        // number formatting and escaping. Knows no algorithm, so the view links it without the tracker.
        .target(name: "PlainText", dependencies: ["LibC"], swiftSettings: strict),
        // Vectors, matrices, quaternions, units, angles and the mount: the floor every other layer stands on.
        .target(name: "Geometry", dependencies: ["LibC"], swiftSettings: strict),
        .target(name: "Hardware", dependencies: ["LibC", "CLinux"], swiftSettings: strict),
        .target(name: "Fusion", dependencies: ["LibC", "Geometry"], swiftSettings: fusionSettings),
        // Magnetometer hard/soft iron and gyro bias (the values, the ellipsoid fit, the guided session).
        .target(name: "SensorCalibration", dependencies: ["LibC", "Geometry"], swiftSettings: strict),
        // The mount learned from gravity at rest and nods (the learner, the guided `calibrate --mount` step).
        .target(name: "MountLearning", dependencies: ["LibC", "Geometry"], swiftSettings: strict),
        .target(name: "Sensors", dependencies: ["LibC", "Hardware", "Geometry"], swiftSettings: strict),
        .target(name: "Gestures", dependencies: ["LibC", "Geometry"], swiftSettings: strict),
        .target(name: "Indicators", dependencies: ["LibC", "Geometry"], swiftSettings: strict),
        .target(name: "Simulation", dependencies: ["LibC", "Hardware", "Sensors", "Geometry"], swiftSettings: strict),
        // The one wiring of the algorithms (mount → calibration → filter → heading → smoother → recognizer) and
        // running it over a recording: pure, time as an argument.
        .target(name: "Tracking", dependencies: ["LibC", "Geometry", "Sensors", "Fusion", "SensorCalibration", "Gestures", "Indicators"],
                swiftSettings: strict),
        // Lab only: synthetic wearers drawn from the gesture model (the cohort, the guided mount trials).
        .target(name: "Cohorts", dependencies: ["LibC", "Geometry", "Simulation"], swiftSettings: strict),
        // Files and their formats: JSON, the config, traces, calibration and truth files, atomic writes, numbers.
        .target(name: "Formats",
                dependencies: ["LibC", "PlainText", "Geometry", "Hardware", "Sensors", "Fusion", "SensorCalibration", "Gestures", "Indicators", "Tracking"],
                swiftSettings: strict),
        // The event stream: the Unix socket server, its clients' queues and the protocol's lines.
        .target(name: "EventStream",
                dependencies: ["LibC", "Geometry", "Hardware", "Sensors", "Fusion", "SensorCalibration", "Gestures", "Indicators", "Tracking", "Formats"],
                swiftSettings: strict),
        // `headtrack view`'s HTTP server: an event stream client that serves 127.0.0.1 only. Knows nothing of
        // the tracker but the stream's lines (a peer of EventStream, so it cannot import it), takes its JSON
        // string writer and line splitter from PlainText (no algorithm below it), and is linked only by the view command.
        .target(name: "BrowserView", dependencies: ["LibC", "PlainText", "ViewPage"], swiftSettings: strict),
        // The daemon: session, fixed-rate loop, systemd, real-time mode, status, journal.
        .target(name: "Service",
                dependencies: ["LibC", "Geometry", "Hardware", "Sensors", "Fusion", "SensorCalibration", "MountLearning", "Gestures", "Indicators", "CRealtime",
                               "Tracking", "Formats", "EventStream"],
                swiftSettings: strict),
        // SVG pictures of a run (`demo --plot`, `replay --plot`, the eval plots): string building, no I/O per sample.
        .target(name: "Plots", dependencies: ["LibC", "Gestures", "Indicators", "Tracking", "Formats"], swiftSettings: strict),
        // The production loop on a simulated board: `demo`, `run --simulated`, `record --simulated`, bench input.
        .target(name: "SimulatedRuns",
                dependencies: ["Geometry", "Hardware", "Sensors", "SensorCalibration", "Gestures", "Simulation", "Tracking", "Formats", "Service"],
                swiftSettings: strict),
        // Lab only: attitude, smoothing and calibration metrics and their reports.
        .target(name: "Evaluation",
                dependencies: ["LibC", "Geometry", "Fusion", "SensorCalibration", "Indicators", "Tracking", "Formats", "Simulation"],
                swiftSettings: strict),
        // Lab only: gesture metrics (recordings against their truth, the synthetic cohort and its one-second
        // windows) and the classic recipe they are compared with.
        .target(name: "GestureMetrics",
                dependencies: ["Cohorts", "LibC", "Geometry", "Gestures", "Sensors", "Simulation", "Tracking", "Formats"],
                swiftSettings: strict),
        // Lab only: `bench` (stage cost, wake-up lateness against the C loop, allocations, memory, 1 kHz) and the
        // finder of the shared recordings it measures on.
        .target(name: "Benchmarks",
                dependencies: ["LibC", "CBench", "CAllocCounter", "Geometry", "Fusion", "Gestures", "Indicators", "Hardware", "Sensors",
                               "Simulation", "Tracking", "Formats", "Service", "SimulatedRuns"],
                swiftSettings: strict),
        // The daemon's command line: parses arguments and prints.
        .target(name: "Commands",
                dependencies: ["LibC", "BuildInfo", "Hardware", "Sensors", "Geometry", "Fusion", "SensorCalibration", "MountLearning", "Gestures",
                               "Indicators", "Simulation", "Tracking", "Formats", "EventStream", "Service", "Plots", "SimulatedRuns", "BrowserView"],
                swiftSettings: strict),
        // The lab's command line (bench, eval).
        .target(name: "LabCommands",
                dependencies: ["Cohorts", "LibC", "BuildInfo", "Commands", "Geometry", "Fusion", "SensorCalibration", "Gestures", "Indicators", "Sensors",
                               "Simulation", "Tracking", "Formats", "Service", "Plots", "SimulatedRuns", "Evaluation", "GestureMetrics", "Benchmarks"],
                swiftSettings: strict),
        .executableTarget(name: "headtrack", dependencies: ["Commands"], swiftSettings: strict),
        .executableTarget(name: "headtrack-lab", dependencies: ["LabCommands"], swiftSettings: strict),
        // libFuzzer targets for the parsers, replay and the event stream's input; real only under scripts/fuzz.sh (-DFUZZING).
        .executableTarget(name: "HeadtrackFuzz", dependencies: ["LibC", "Geometry", "Hardware", "Sensors", "Fusion", "SensorCalibration", "Tracking", "Formats", "EventStream",
                                                                "Plots", "BrowserView"],
                          swiftSettings: strict),

        // Test helpers more than one test target needs (temporary directories, files written without FileIO).
        .target(name: "TestSupport", dependencies: ["LibC", "Geometry"], path: "Tests/TestSupport", swiftSettings: strict),

        // Reads Package.swift and Sources as text (no target dependencies): the layer list above must hold.
        .testTarget(name: "LayerTests", swiftSettings: strict),
        .testTarget(name: "GeometryTests", dependencies: ["Geometry"], swiftSettings: strict),
        .testTarget(name: "HardwareTests", dependencies: ["TestSupport", "Hardware"], swiftSettings: strict),
        .testTarget(name: "FusionTests", dependencies: ["Fusion", "Geometry"], swiftSettings: strict),
        .testTarget(name: "SensorCalibrationTests", dependencies: ["SensorCalibration", "Geometry"], swiftSettings: strict),
        .testTarget(name: "SensorsTests", dependencies: ["Sensors", "Simulation", "Geometry"], swiftSettings: strict),
        .testTarget(name: "MountLearningTests", dependencies: ["Cohorts", "MountLearning", "Simulation", "Geometry"], swiftSettings: strict),
        .testTarget(name: "GesturesTests",
                    dependencies: ["TestSupport", "Gestures", "Geometry", "Fusion", "Sensors", "Tracking", "Formats", "GestureMetrics"],
                    resources: [.copy("Fixtures")], swiftSettings: strict),
        .testTarget(name: "IndicatorsTests", dependencies: ["Indicators", "Geometry"], swiftSettings: strict),
        .testTarget(name: "SimulationTests", dependencies: ["Cohorts", "Simulation", "Geometry"], swiftSettings: strict),
        // ReplayTests reads its recording with Formats' TraceFile: the one dependency above Tracking.
        .testTarget(name: "TrackingTests", dependencies: ["Tracking", "Geometry", "Fusion", "SensorCalibration", "Formats"],
                    resources: [.copy("Fixtures")], swiftSettings: strict),
        .testTarget(name: "FormatsTests", dependencies: ["TestSupport", "Formats", "Tracking", "Geometry", "Fusion", "SensorCalibration", "Gestures", "Sensors"],
                    swiftSettings: strict),
        .testTarget(name: "PlainTextTests", dependencies: ["PlainText"], swiftSettings: strict),
        .testTarget(name: "EventStreamTests", dependencies: ["TestSupport", "EventStream", "Formats", "PlainText", "Indicators", "Tracking", "SensorCalibration", "Sensors", "Hardware", "Geometry"],
                    swiftSettings: strict),
        .testTarget(name: "ServiceTests", dependencies: ["TestSupport", "Cohorts", "Service", "Tracking", "Formats", "EventStream", "Simulation", "Geometry"],
                    swiftSettings: strict),
        .testTarget(name: "EvaluationTests", dependencies: ["Evaluation", "Plots", "SimulatedRuns", "Geometry", "Tracking", "Formats",
                                                            "Benchmarks", "CAllocCounter"], resources: [.copy("Fixtures")], swiftSettings: strict),
        .testTarget(name: "GestureMetricsTests", dependencies: ["TestSupport", "GestureMetrics", "Cohorts", "Gestures", "Simulation", "Formats", "Geometry"],
                    swiftSettings: strict),
        .testTarget(name: "PlotsTests", dependencies: ["Plots"], swiftSettings: strict),
        .testTarget(name: "CommandsTests", dependencies: ["TestSupport", "Cohorts", "Commands", "LabCommands", "Geometry", "Tracking", "Formats", "Service", "Evaluation", "Benchmarks", "Simulation"],
                    swiftSettings: strict),
        .testTarget(name: "BrowserViewTests", dependencies: ["BrowserView", "ViewPage"], swiftSettings: strict),
        // Replays every file of Fuzz/corpus (seeds and crash regressions) through the fuzz targets' code.
        .testTarget(name: "FuzzCorpusTests", dependencies: ["HeadtrackFuzz"], swiftSettings: strict),
    ]
)
