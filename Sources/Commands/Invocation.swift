/// The program as the user called it, for messages and help: `headtrack-lab` when the lab is called by its own
/// name, `headtrack` otherwise, including when `headtrack eval|bench` hands a command on to the lab (it starts
/// the lab with argv[0] `headtrack`). Read once from argv[0], so it never changes while commands run.
public enum Invocation {
    public static let program = program(argv0: CommandLine.arguments.first ?? "headtrack")

    static func program(argv0: String) -> String {
        (argv0.split(separator: "/").last.map(String.init) ?? argv0) == "headtrack-lab" ? "headtrack-lab" : "headtrack"
    }

    /// `text` with "headtrack NAME" for each of `commands` written as `program` ("headtrack run" stays when
    /// only the lab's commands are named).
    public static func spelled(_ text: String, commands: [String], as program: String = Invocation.program) -> String {
        guard program != "headtrack" else { return text }
        var out = text
        for name in commands {
            let typed = "headtrack " + name
            var result = ""
            var rest = Substring(out)
            while let r = rest.firstRange(of: typed) {
                let next = rest[r.upperBound...].first
                result += rest[..<r.lowerBound]
                result += next.map { $0.isLetter || $0.isNumber } == true ? typed : program + " " + name
                rest = rest[r.upperBound...]
            }
            out = result + rest
        }
        return out
    }
}
