import Testing
import Formats

/// The buffered writer `record` and `replay` write through, on a full disk (it once flushed again in `close()`
/// after the failure and reported EBADF).
@Suite struct BufferedFileWriterTests {
    @Test func theWriterReportsItsFirstErrorAndNeverWritesAClosedDescriptor() throws {
        let w = try BufferedFileWriter(path: "/dev/full")
        var first: FileError? = nil
        do {
            for _ in 0..<200 { try w.write(String(repeating: "x", count: 1000) + "\n") }
        } catch { first = error }
        #expect(first?.message.contains("ENOSPC") == true, "\(String(describing: first))")
        do { try w.close(); Issue.record("close after a failed write succeeded") } catch {
            #expect(error.message.contains("ENOSPC") && !error.message.contains("EBADF"), "\(error.message)")
        }
    }
}
