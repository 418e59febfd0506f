import Testing

/// `demo` through the built binary: the exit statuses its help lists are the ones it gives.
@Suite struct DemoCommandTests: InProcessCommands {
    typealias P = HeadtrackProcess

    // Once demo's help listed exit 1 for a missed gesture only; --socket in a missing directory exited 1
    // (with the systemd RuntimeDirectory hint) where --plot there exits 2.
    @Test func demoExitStatusesAreTheOnesItsHelpLists() {
        let help = P.run(["demo", "--help"]).stdout
        let one = help.split(separator: "\n").first { $0.hasPrefix("  1  ") } ?? ""
        #expect(one.contains("failed") && one.contains("missed"), "\(one)")
        let plot = P.run(["demo", "--plot", "/nonexistent/p.svg"])
        let socket = P.run(["demo", "--socket", "/nonexistent/x.sock"])
        #expect(plot.status == 2 && socket.status == 2, "plot \(plot.status), socket \(socket.status): \(socket.stderr)")
        #expect(socket.stderr.contains("/nonexistent") && !socket.stderr.contains("RuntimeDirectory"), "\(socket.stderr)")
        let full = P.run(["demo", "--plot", "/dev/full"])
        #expect(full.status == 1 && full.stderr.contains("ENOSPC"), "\(full.stderr)")
    }

    // Once `demo --speed 1e-15` overflowed Int64 in the virtual clock.
    @Test func absurdDemoSpeedsAreRefused() {
        #expect(run(["demo", "--speed", "1e-15"]) == 2)
        #expect(run(["demo", "--speed", "1e300"]) == 2)
        #expect(run(["demo", "--speed", "-1"]) == 2)
    }
}
