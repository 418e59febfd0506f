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
    }
}
