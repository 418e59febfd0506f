import EventStream
import Formats

/// Opens the event stream for the daemon and for the commands that serve one (`demo`, `replay --stream`).
public enum StreamSetup {
    /// Where: `socket` (`--socket`), else the config's `stream.socket`, else the default path when `byDefault`
    /// (the headset's service does; the simulated commands do not, so a laptop without /run/headtrack stays
    /// quiet); `""` turns it off. A socket someone named must open, or the command does not start; the default
    /// one failing is a warning and tracking goes on without a stream (the LEDs matter more).
    public static func open(socket: String?, config: Config, byDefault: Bool, hello: StreamHello) throws(ServiceError) -> EventStream? {
        let named = socket ?? config.streamSocket
        guard let path = named ?? (byDefault ? EventStream.defaultSocketPath : nil), !path.isEmpty else { return nil }
        var settings = EventStream.Settings()
        settings.socketPath = path
        settings.stateHz = config.streamStateHz
        if byDefault {
            settings.server.missingDirectoryHint = "under systemd the unit's RuntimeDirectory=headtrack makes /run/headtrack; otherwise give --socket PATH"
        }
        do {
            let stream = try EventStream(settings: settings, hello: hello)
            Log.noticeOnStderr("headtrack: event stream on \(path)")
            return stream
        } catch {
            if named != nil { throw ServiceError(error.description) }
            Log.warning("headtrack: no event stream: \(error.description)")
            return nil
        }
    }
}

extension EventStream {
    /// One line for the exit summary.
    public var summary: String {
        let t = server.totals
        return "event stream: \(t.accepted) clients served, \(t.droppedStateLines) state lines dropped for slow clients, "
            + "\(t.disconnectedStalled) disconnected for not reading, \(t.refusedTooMany) refused (too many)"
    }
}
