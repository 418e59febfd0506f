import Testing
@testable import Commands
@testable import LabCommands

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
        // Each line names only options of its command's table (the longest command name it starts with:
        // "headtrack eval gestures" is the topic's).
        let commands = OptionTableTests.all
        for line in block {
            let words = line.split(separator: " ").map(String.init)
            guard let c = commands.filter({ words.starts(with: ["headtrack"] + $0.command.split(separator: " ").map(String.init)) })
                .max(by: { $0.command.count < $1.command.count }) else {
                #expect(line == "headtrack eval TOPIC [OPTIONS]    (headtrack eval TOPIC --help for details)", "\(line)")
                continue
            }
            let named = Set(OptionTableTests.optionWords(line))
            #expect(named.isSubset(of: Set(c.table.words)) && !named.isEmpty, "\(line): \(named.subtracting(c.table.words))")
        }
    }
}
