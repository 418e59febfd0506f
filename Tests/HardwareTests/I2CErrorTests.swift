import Testing
import Hardware

/// How an errno is put in words (`describeErrno`).
@Suite struct I2CErrorTests {
    @Test func errnoMessagesSayWhatTheErrorMeans() {
        #expect(describeErrno(21) == "is a directory (EISDIR)")
        #expect(describeErrno(25).hasSuffix("(ENOTTY)"))
        #expect(describeErrno(16).contains("(EBUSY)"))
        #expect(!describeErrno(84).isEmpty)  // an errno without a name here still gets strerror's meaning
        #expect(!describeErrno(84).hasPrefix("errno"))
    }
}
