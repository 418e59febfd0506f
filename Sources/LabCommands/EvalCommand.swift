import Service
import Formats
import Commands
/// A topic of `headtrack eval`: each lives in its own file and is listed in `EvalCommand.topics`.
public protocol EvalTopic: DocumentedCommand {
    /// Its name after `eval` ("gestures").
    static var topic: String { get }
}

extension EvalSmoothingCommand: EvalTopic {}
extension EvalAttitudeCommand: EvalTopic {}
extension EvalCalibrationCommand: EvalTopic {}

/// `headtrack eval TOPIC ...`: measures the product on recordings and simulated motion.
struct EvalCommand: Command {
    static let name = "eval"
    static let summary = "measure attitude, gestures or smoothing on recordings and simulated motion"
    static let dispatchesSubcommands = true
    /// The topics have the options; `eval` itself takes none.
    static let options = OptionTable.none

    /// Every topic. Adding one = one file + one line here.
    static var topics: [any EvalTopic.Type] {
        [
            EvalGesturesCommand.self,
            EvalSmoothingCommand.self,
            EvalAttitudeCommand.self,
            EvalCalibrationCommand.self,
        ]
    }

    static var help: String {
        var s = "usage: headtrack eval TOPIC [OPTIONS]    (headtrack eval TOPIC --help for details)\n\ntopics:\n"
        let width = topics.map { $0.topic.count }.max() ?? 0
        for t in topics {
            s += "  " + t.topic + String(repeating: " ", count: width - t.topic.count + 3) + t.summary + "\n"
        }
        return s
    }

    static var documentedSubcommands: [Subcommand] {
        topics.map { Subcommand(name: $0.topic, summary: $0.summary, help: $0.help, options: $0.options) }
    }

    /// A topic's help with the exit statuses.
    static func fullHelp(_ topic: any EvalTopic.Type) -> String {
        topic.help + (topic.help.hasSuffix("\n") ? "\n" : "\n\n") + ExitStatus.text()
    }

    static func run(_ arguments: inout Arguments) throws -> Int32 {
        let all = try arguments.positionalsAndOptions()
        guard let name = all.first else { throw CommandError("name a topic\n\n" + Invocation.spelled(help, commands: [Self.name]), status: 2) }
        guard let topic = topics.first(where: { $0.topic == name }) else {
            throw CommandError("unknown topic \(Shown.quoted(name))\n\n" + Invocation.spelled(help, commands: [Self.name]), status: 2)
        }
        var rest = Arguments(Array(all.dropFirst()), command: "eval \(name)", options: topic.options)
        if rest.wantsHelp {
            Console.out(Invocation.spelled(fullHelp(topic), commands: [Self.name]))
            return 0
        }
        // The topic's errors are the topic's: "headtrack eval gestures: …".
        do { return try topic.run(&rest) } catch var e as CommandError {
            e.command = e.command ?? "eval \(name)"
            throw e
        } catch {
            var e = CommandError("\(error)")
            e.command = "eval \(name)"
            throw e
        }
    }
}
