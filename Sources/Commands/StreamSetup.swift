import Formats
import EventStream

/// Opens the event stream for a command: where (`--socket`, the config's `stream.socket`, the default) and
/// what happens when it cannot be opened.
enum StreamSetup {
    static let optionHelp = """
          --socket PATH     serve the event stream (JSON lines, see the README) on this Unix socket
        """

    /// `explicit` is `--socket`; `byDefault` says whether the command serves the stream at the default path
    /// when nothing names one (`run` on hardware does; the simulated commands do not, so a developer machine
    /// without /run/headtrack stays quiet). A socket the user named must open, or the command fails; the
    /// default one failing is a warning and tracking goes on without a stream (the LEDs matter more).
    static func open(explicit: String?, config: Config, byDefault: Bool, hello: StreamHello) throws -> EventStream? {
        let named = explicit ?? config.streamSocket
        guard let path = named ?? (byDefault ? EventStream.defaultSocketPath : nil), !path.isEmpty else { return nil }
        var settings = EventStream.Settings()
        settings.socketPath = path
        settings.stateHz = config.streamStateHz
        do {
            let stream = try EventStream(settings: settings, hello: hello)
            Log.noticeOnStderr("headtrack: event stream on \(path)")
            return stream
        } catch {
            if named != nil { throw CommandError(error.description) }
            Log.warning("headtrack: no event stream: \(error.description)")
            return nil
        }
    }

    /// One line for the exit summary.
    static func summary(_ stream: EventStream) -> String {
        let t = stream.server.totals
        return "event stream: \(t.accepted) clients served, \(t.droppedStateLines) state lines dropped for slow clients, "
            + "\(t.disconnectedStalled) disconnected for not reading, \(t.refusedTooMany) refused (too many)"
    }
}
