import Commands
import LabCommands

/// Runs `headtrack` / `headtrack-lab` command lines in this process (exit status only; for what the user
/// reads on stdout and stderr, use `HeadtrackProcess`). Suites conform to get `run`, `lab` and `temporaryPath`.
protocol InProcessCommands {}

extension InProcessCommands {
    func run(_ args: [String]) -> Int32 {
        var a = args
        return HeadtrackCommand.run(&a)
    }

    func lab(_ args: [String]) -> Int32 {
        var a = args
        return LabCommand.run(&a)
    }

    func temporaryPath(_ name: String) -> String {
        "/tmp/headtrack-test-\(UInt32.random(in: 0...UInt32.max))-\(name)"
    }
}
