import Testing
@testable import Commands
@testable import LabCommands
@testable import Hardware
@testable import Service
@testable import Benchmarks
import Sensors
#if canImport(Glibc)
import Glibc
#endif
import TestSupport

/// What a new user trips over on first use: each test runs the command the way the user did and checks the
/// words they see and the exit status, against what the command line promises in its --help.
@Suite struct FirstUseTests {
    typealias P = HeadtrackProcess

    // MARK: the bus

    @Test func aDirectoryIsNotABus() {
        let r = P.run(["probe", "--i2c", "/tmp"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("/tmp is a directory, not an I²C bus"))
        #expect(!r.stderr.contains("errno"))
    }

    @Test func aRegularFileOrDevNullIsNotABus() throws {
        let dir = temporaryDirectory("first-use")
        let file = dir + "/regular-file"
        writeText("not a bus\n", to: file)
        let r = P.run(["probe", "--i2c", file])
        #expect(r.status == 1)
        #expect(r.stderr.contains("is not an I²C bus device (a regular file)"))
        #expect(!r.stderr.contains("no IMU answered"))
        let null = P.run(["probe", "--i2c", "/dev/null"])
        #expect(null.status == 1)
        #expect(null.stderr.contains("/dev/null is not an I²C bus device"))
    }

    @Test func errnoMessagesSayWhatTheErrorMeans() {
        #expect(describeErrno(21) == "is a directory (EISDIR)")
        #expect(describeErrno(25).hasSuffix("(ENOTTY)"))
        #expect(describeErrno(16).contains("(EBUSY)"))
        #expect(!describeErrno(84).isEmpty)  // an errno without a name here still gets strerror's meaning
        #expect(!describeErrno(84).hasPrefix("errno"))
    }

    /// The kernel answers EBUSY on I2C_SLAVE for an address its own driver (inv_mpu6050) has bound.
    struct KernelOwnedBus: I2CBus {
        var name = "/dev/i2c-1"
        mutating func readRegisters(address: UInt8, register: UInt8, into buffer: UnsafeMutableBufferPointer<UInt8>) throws(I2CError) {
            if address == 0x68 { throw I2CError.from(errno: 16, address: address) }
            throw .noAcknowledge(address: address)
        }
        mutating func writeRegister(address: UInt8, register: UInt8, value: UInt8) throws(I2CError) {
            if address == 0x68 { throw I2CError.from(errno: 16, address: address) }
            throw .noAcknowledge(address: address)
        }
    }

    @Test func anAddressHeldByAKernelDriverIsNamedAsSuch() throws {
        var bus = KernelOwnedBus()
        let detection = BoardDetector.detect(&bus)
        let failure = try #require(detection.failure)
        #expect(failure == .bus(.addressInUse(address: 0x68)))
        #expect(failure.description.contains("0x68 is in use by a kernel driver"))
        #expect(failure.description.contains("dtoverlay"))
        #expect(!failure.description.contains("wiring"))
        #expect(detection.findings.contains { $0.contains("UU") })
    }

    @Test func theProbeHintNamesTheBusInUseAndTheBusesThatExist() throws {
        let message = SensorError.noIMU(bus: "/dev/i2c-3", addresses: [0x68, 0x69]).description
        #expect(message.contains("i2cdetect -y 3"))
        #expect(!message.contains("i2cdetect -y 1"))
        // A number too long for i2c-dev is no bus number (and is never converted: Int() of it would be nil or trap).
        let odd = SensorError.noIMU(bus: "/dev/i2c-99999999999999999999", addresses: [0x68]).description
        #expect(odd.contains("i2cdetect lists what answers") && !odd.contains("i2cdetect -y"))
        let dir = temporaryDirectory("first-use")
        for name in ["i2c-20", "i2c-1", "i2c-x", "gpiochip0", "i2c-"] { writeText("", to: dir + "/" + name) }
        #expect(LinuxI2CBus.existingBuses(in: dir) == [dir + "/i2c-1", dir + "/i2c-20"])
        let r = P.run(["probe", "--i2c", "/dev/i2c-99"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("buses here:") || r.stderr.contains("no /dev/i2c-* bus at all"))
    }

    /// Another process holding the bus (the service) is named with its pid, before any register is touched.
    @Test func aSecondUserOfTheBusIsRefusedWithTheHoldersPid() throws {
        let dir = temporaryDirectory("first-use")
        let file = dir + "/bus"
        writeText("", to: file)
        let ready = dir + "/ready"
        let script = "import fcntl,time,os\nf=open('\(file)','r+')\nfcntl.lockf(f,fcntl.LOCK_EX)\nopen('\(ready)','w').write(str(os.getpid()))\ntime.sleep(60)\n"
        var pid: pid_t = 0
        let words: [String] = ["/usr/bin/env", "python3", "-c", script]
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        #expect(posix_spawn(&pid, "/usr/bin/env", nil, nil, argv, environ) == 0)
        defer { kill(pid, SIGKILL); var s: Int32 = 0; waitpid(pid, &s, 0) }
        var waited = 0
        while access(ready, F_OK) != 0 && waited < 3000 { usleep(10_000); waited += 10 }
        try #require(access(ready, F_OK) == 0, "python3 did not take the lock")
        let fd = open(file, O_RDWR)
        defer { close(fd) }
        #expect(throws: I2CError.busInUse(path: file, pid: pid)) { try LinuxI2CBus.lock(fd, path: file) }
        let message = I2CError.busInUse(path: "/dev/i2c-1", pid: pid).description
        #expect(message.contains("headtrack is already using /dev/i2c-1 (pid \(pid))"))
        #expect(message.contains("systemctl stop headtrack"))
        // Once the holder is gone the lock is free again (the kernel drops it with the process).
        kill(pid, SIGKILL)
        var s: Int32 = 0
        waitpid(pid, &s, 0)
        #expect(throws: Never.self) { try LinuxI2CBus.lock(fd, path: file) }
    }

    // MARK: help and exit statuses

    @Test func helpCommandShowsThatCommandsHelp() {
        let r = P.run(["help", "run"])
        #expect(r.status == 0)
        #expect(r.stdout.hasPrefix("usage: headtrack run"))
        let eval = P.run(["help", "eval", "attitude"])
        #expect(eval.status == 0)
        #expect(eval.stdout.hasPrefix("usage: headtrack eval attitude"))
        #expect(P.run(["help", "fly"]).status == 2)
    }

    @Test func noArgumentsIsAUsageErrorOnStderr() {
        let r = P.run([])
        #expect(r.status == 2)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.contains("usage: headtrack COMMAND"))
        let help = P.run(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("commands:"))
    }

    @Test func everyHelpStatesItsExitStatuses() {
        for c in HeadtrackCommand.commands {
            let text = HeadtrackCommand.fullHelp(c)
            #expect(text.contains("exit status:\n  0  done\n  1  "), "\(c.name)")
            #expect(text.contains("  2  usage error"), "\(c.name)")
        }
        for t in EvalCommand.topics { #expect(EvalCommand.fullHelp(t).contains("exit status:"), "\(t.topic)") }
        let demo = P.run(["demo", "--help"])
        #expect(demo.stdout.contains("1  failed (the plot or the stream could not be written), or a scripted gesture was missed"))
    }

    @Test func manPageAndCompletionComeFromTheHelpTexts() {
        let man = P.run(["help", "--man"])
        #expect(man.status == 0)
        #expect(man.stdout.hasPrefix(".\\\" Generated by 'headtrack help --man'"))
        for c in HeadtrackCommand.commands { #expect(man.stdout.contains(".SS \(c.name)\n"), "\(c.name)") }
        #expect(man.stdout.contains(".SH EXIT STATUS"))
        let completion = P.run(["help", "--bash-completion"])
        #expect(completion.status == 0)
        #expect(completion.stdout.contains("run) words=\"--i2c --gpio-chip --config --duration"))
        #expect(completion.stdout.contains("eval bench help --help --version"))  // the lab's names, forwarded
        // eval's topics and options are in the lab's own completion (the lab is not on a headset).
        let labCompletion = P.run(executable: P.binary + "-lab", ["help", "--bash-completion"])
        #expect(labCompletion.stdout.contains("eval) words=\"gestures smoothing attitude"))
        #expect(labCompletion.stdout.contains("complete -o filenames -F _headtrack_lab headtrack-lab"))
        // Only the options a command takes: these are named in the prose of its help (another command's, or
        // a setting's), and the command refuses each with exit 2.
        func words(_ text: String, _ command: String) -> [String] {
            guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("        \(command)) words=") }) else { return [] }
            return line.split(separator: "\"").dropFirst().first.map { $0.split(separator: " ").map(String.init) } ?? []
        }
        for (text, command, refused) in [(completion.stdout, "run", "--mount"), (completion.stdout, "probe", "--mount"),
                                         (completion.stdout, "view", "--simulated"), (labCompletion.stdout, "bench", "--simulated"),
                                         (labCompletion.stdout, "eval", "--skip-gyro")] {
            let offered = words(text, command)
            #expect(offered.contains("--help") && !offered.contains(refused), "\(command): \(offered)")
        }
        #expect(words(completion.stdout, "run").contains("--simulated") && words(completion.stdout, "view").contains("--port"))
        let helpHelp = P.run(["help", "--help"])
        #expect(helpHelp.status == 0 && helpHelp.stdout.hasPrefix("usage: headtrack help [COMMAND [TOPIC]]"), "\(helpHelp.stderr)")
        let dir = temporaryDirectory("first-use")
        let path = dir + "/completion.bash"
        writeText(completion.stdout, to: path)
        #expect(P.run(executable: "/bin/bash", ["-n", path]).status == 0)
    }

    @Test func versionNamesTheCommitItWasBuiltFrom() throws {
        let r = P.run(["--version"])
        #expect(r.status == 0)
        let line = r.stdout.split(separator: "\n").first.map(String.init) ?? ""
        #expect(line.hasPrefix("headtrack "))
        let git = P.run(executable: "/usr/bin/git", ["-C", P.repository, "rev-parse", "HEAD"])
        try #require(git.status == 0, "no git checkout to compare with")
        let head = git.stdout.prefix(12)
        #expect(line.contains("(commit \(head)"), "\(line) vs HEAD \(head)")
        #expect(line != "headtrack 0.1.0")
    }

    // MARK: options

    @Test func aDashMeansStandardOutputAndStandardInput() throws {
        let dir = temporaryDirectory("first-use")
        let trace = dir + "/r.csv"
        #expect(P.run(["record", "--simulated", "--duration", "1", "--out", trace]).status == 0)
        let r = P.run(["replay", trace, "--events", "-"], directory: dir)
        #expect(r.status == 0)
        #expect(r.stdout.hasPrefix("t,event\n"))
        #expect(r.stderr.contains("200 samples"))
        #expect(access(dir + "/-", F_OK) != 0)  // no file named "-"
        let fromStdin = P.run(["replay", "-"], stdin: trace)
        #expect(fromStdin.status == 0)
        #expect(fromStdin.stdout.contains("200 samples"))
    }

    @Test func recordDurationIsTheRecordedTime() throws {
        let dir = temporaryDirectory("first-use")
        let trace = dir + "/r.csv"
        let r = P.run(["record", "--simulated", "--duration", "3", "--out", trace])
        #expect(r.status == 0)
        // 3 s at the default 200 Hz IMU rate.
        #expect(r.stdout.contains("wrote 600 samples"))
        let rows = P.read(trace).split(separator: "\n").filter { $0.first?.isNumber == true }
        #expect(rows.count == 600)
    }

    @Test func aNegativeOrZeroDurationIsRefused() {
        for d in ["-5", "0", "1e30"] {
            let r = P.run(["run", "--simulated", "--duration", d])
            #expect(r.status == 2, "\(d)")
            #expect(r.stderr.contains("--duration must be a time in seconds from 0.001 up to a year"), "\(d)")
            #expect(!r.stdout.contains("in real time"), "\(d)")
        }
    }

    @Test func anUnwritablePlotPathFailsBeforeTheWork() {
        let r = P.run(["demo", "--speed", "0", "--plot", "/nonexistent/dir/x.svg"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("the directory /nonexistent/dir does not exist"))
        #expect(!r.stdout.contains("scripted gestures"))
        let dir = temporaryDirectory("first-use")
        let onDirectory = P.run(["replay", "x.csv", "--plot", dir])
        #expect(onDirectory.status == 2)
        #expect(onDirectory.stderr.contains("is a directory"))
    }

    @Test func evalAttitudeShowsProgressPerTrial() {
        let fixture = P.repository + "/Tests/EvaluationTests/Fixtures/broad_01_slow_rotation_excerpt.csv"
        let r = P.run(["eval", "attitude", fixture, "--mode", "both"])
        #expect(r.status == 0)
        #expect(r.stderr.contains("1/2 broad_01_slow_rotation_excerpt (9D)"))
        #expect(r.stderr.contains("2/2 broad_01_slow_rotation_excerpt (6D)"))
        #expect(!r.stdout.contains("1/2"))
    }

    @Test func evalGesturesCohortShowsProgressPerKind() {
        let r = P.run(["eval", "gestures", "--cohort", "1"])
        #expect(r.status == 0)
        #expect(r.stderr.contains("1/36 default detector, single nod (1 wearer)"))
        #expect(r.stderr.contains("36/36 classic detector, drawing shapes (1 wearer)"))
        #expect(!r.stdout.contains("1/36"))
        // Windows: every kind with the lead-in opening, then the gesture kinds mid-gesture, per detector.
        let windows = P.run(["eval", "gestures", "--cohort", "2", "--windows", "1"])
        #expect(windows.status == 0)
        #expect(windows.stderr.contains("23/44 classic detector, single nod (2 wearers)"))
        #expect(windows.stderr.contains("44/44 classic detector, shakes (2 wearers)"))
    }

    @Test func thePlotCountsDisplayFramesNotSamples() throws {
        let dir = temporaryDirectory("first-use")
        let r = P.run(["demo", "--speed", "0", "--plot", dir + "/demo.svg"])
        #expect(r.status == 0)  // the story passes: exactly one nod and one shake
        let svg = P.read(dir + "/demo.svg")
        #expect(svg.contains(" display frames · "))
        #expect(!svg.contains(" samples · "))
        #expect(r.stdout.contains("IMU samples: "))
    }

    /// The clone's layout: REPO/.build/... and shared/ beside REPO. Where the shared data is there at all,
    /// the candidates from the executable's own place must reach it, whatever the working directory
    /// (skipped, and shown as skipped, where the clone has no shared/ beside it).
    @Test(.enabled(if: access(HeadtrackProcess.repository + "/../shared/data/attitude", F_OK) == 0,
                   "needs ../shared (README: Shared recordings)"))
    func sharedRecordingsAreFoundFromTheBinarysPlace() {
        let fromBinary = SharedData.candidates("attitude").filter { $0.hasPrefix("/") }
        #expect(fromBinary.contains { access($0, F_OK) == 0 })
        let elsewhere = P.run(["eval", "smoothing", "--help"], directory: "/")
        #expect(elsewhere.stdout.contains("../shared/data/attitude"))
        #expect(!elsewhere.stdout.contains("/work/"))
    }

    /// A recording whose frame line says how it was worn, replayed without --mount: the user is told which
    /// --mount it names (the shared data README's -x,z,y), and nothing about the run changes.
    @Test func aRecordingsStatedMountIsSuggestedNotApplied() {
        let fixtures = P.repository + "/Tests/GesturesTests/Fixtures"
        let without = P.run(["replay", fixtures + "/st26_nod.csv"])
        #expect(without.status == 0)
        #expect(without.stderr.contains("the frame line of st26_nod.csv says it was worn as mount -x,z,y; give --mount=-x,z,y"))
        #expect(!without.stdout.contains("note:"))
        let piped = P.run(["replay", "-"], stdin: fixtures + "/st26_nod.csv")
        #expect(piped.stderr.contains("the frame line of standard input says it was worn as mount -x,z,y"))
        let with = P.run(["replay", fixtures + "/st26_nod.csv", "--mount=-x,z,y"])
        #expect(with.status == 0)
        #expect(!with.stderr.contains("note:"))
        let eval = P.run(["eval", "gestures", fixtures])
        #expect(eval.status == 0)
        #expect(eval.stderr.contains("the frame lines of st26_nod.csv, st26_shake.csv, st26_stationary.csv and 2 more say they were worn as mount -x,z,y"))
        // The table is the one a run without a mount gives: the note only suggests.
        let evalWith = P.run(["eval", "gestures", fixtures, "--mount=-x,z,y"])
        #expect(!evalWith.stderr.contains("note:"))
        #expect(eval.stdout.hasPrefix("gestures: detector default, mount none,"))
        #expect(evalWith.stdout.hasPrefix("gestures: detector default, mount -x,z,y,"))
    }

    @Test func deployHelpDoesNotRecommendTheUnverifiedSDK() {
        let r = P.run(executable: "/bin/bash", [P.repository + "/deploy/deploy.sh", "--help"])
        #expect(r.status == 0)
        #expect(!r.stdout.contains("e.g. aarch64-swift-linux-musl"))
        #expect(r.stdout.contains("unverified"))
    }
}

/// The README's usage block is the commands' own usage lines, so it cannot drift from `--help`.
@Suite struct ReadmeUsageTests {
    @Test func readmeUsageBlockMatchesHelp() throws {
        let readme = HeadtrackProcess.read(HeadtrackProcess.repository + "/README.md")
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let heading = try #require(lines.firstIndex(of: "## Usage"))
        let open = try #require(lines[heading...].firstIndex(of: "```"))
        let close = try #require(lines[(open + 1)...].firstIndex(of: "```"))
        let block = Array(lines[(open + 1)..<close])
        #expect(block == HelpDocuments.synopsis(HeadtrackCommand.tool) + HelpDocuments.synopsis(LabCommand.tool))
    }
}
