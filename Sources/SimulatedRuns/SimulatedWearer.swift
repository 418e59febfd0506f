import Hardware
import Simulation

/// A simulated wearer for `run --simulated`, so an app can be developed without a headset: it answers the
/// apps' questions (nods or shakes a second after one is pending), makes a gesture when told (`perform`, the
/// terminal's keys), and plays the story once or on a loop. It feeds the simulated board's motion script one
/// segment at a time, just before the script runs out, never rewriting what is scripted, so the motion stays
/// continuous and a gesture asked for starts when the current segment ends (a story segment lasts 3 s at most),
/// or at once when the story is over. The board must start with an empty script (`MotionScript(initialHeading:)`
/// of the story).
///
/// Runs on the loop's thread, from the clock (`WearerClock`), like the board it moves.
public final class SimulatedWearer {
    public enum Gesture: Sendable, Equatable {
        case nod, shake

        /// The demo story's nod and shake: two cycles, which the detector takes with or without a question.
        var segment: MotionScript.Segment {
            switch self {
            case .nod: return .nod(cycles: 2, amplitude: 12, frequency: 2)
            case .shake: return .shake(cycles: 2, amplitude: 15, frequency: 2)
            }
        }
    }

    /// How long a person takes to answer once a question is pending (s).
    public static let reactionTime = 1.0
    /// Segments are added this long before the script runs out (s), so the board never holds still between two.
    static let lead = 0.5

    private let board: SimulatedBoard
    /// The answer to every question, or nil: this wearer answers none.
    public let answer: Gesture?
    /// The story's segments (on a loop, with a turn back to where it began), and the next one to play.
    private let story: [MotionScript.Segment]
    private let loops: Bool
    private var nextStorySegment = 0
    /// Whether an app's question is pending: the stream's, set by the caller once the stream exists.
    public var questionPending: () -> Bool = { false }
    /// The next key pressed, without waiting (nil: none now): `n` nods, `s` shakes. Read every 50 ms.
    public var readKey: () -> UInt8? = { nil }
    private var keysReadAt = -Double.infinity
    /// Gestures asked for by keys, or by a pending question, not scripted yet.
    private var queued: [Gesture] = []
    private var pendingSince: Double? = nil
    /// The question being answered: no second answer until it is no longer pending.
    private var answering = false
    /// Gestures made so far (tests and the exit summary).
    public private(set) var performed: [(gesture: Gesture, start: Double)] = []

    public init(board: SimulatedBoard, story: MotionScript, answer: Gesture?, loops: Bool) {
        self.board = board
        self.answer = answer
        self.loops = loops
        self.story = story.segments.map { $0.segment } + (loops ? [.turn(toHeading: story.initialHeading, duration: 2)] : [])
        queued.reserveCapacity(16)
        performed.reserveCapacity(64)
    }

    /// Makes `g` as soon as the current segment ends.
    public func perform(_ g: Gesture) {
        if queued.count < 16 { queued.append(g) }
    }

    /// Called often (every sleep of the loop) at simulation time `t` (s, the board's clock).
    public func tick(t: Double) {
        if t - keysReadAt >= 0.05 {
            keysReadAt = t
            while let key = readKey() {
                if key == UInt8(ascii: "n") { perform(.nod) }
                if key == UInt8(ascii: "s") { perform(.shake) }
            }
        }
        if let answer {
            if questionPending() {
                if !answering {
                    if pendingSince == nil { pendingSince = t }
                    if let since = pendingSince, t - since >= SimulatedWearer.reactionTime {
                        perform(answer)
                        answering = true
                    }
                }
            } else {
                pendingSince = nil
                answering = false
            }
        }
        var motion = board.imu.motion
        guard motion.duration - t < SimulatedWearer.lead else { return }
        if !queued.isEmpty {
            // A script that ran out holds its last pose: stand still until now, then move.
            if motion.duration < t { motion.append(.still(duration: t - motion.duration)) }
            let g = queued.removeFirst()
            performed.append((g, motion.duration))
            motion.append(g.segment)
            motion.append(.still(duration: 1))
        } else if nextStorySegment < story.count {
            if motion.duration < t { motion.append(.still(duration: t - motion.duration)) }
            motion.append(story[nextStorySegment])
            nextStorySegment += 1
            if loops && nextStorySegment == story.count { nextStorySegment = 0 }
        } else {
            return
        }
        board.imu.motion = motion
    }
}

/// A clock that lets the simulated wearer move after each of the loop's sleeps, on the loop's thread.
public struct WearerClock<Base: MonotonicClock>: MonotonicClock {
    private var base: Base
    private let wearer: SimulatedWearer
    private let board: SimulatedBoard

    public init(_ base: Base, wearer: SimulatedWearer, board: SimulatedBoard) {
        self.base = base
        self.wearer = wearer
        self.board = board
    }

    public mutating func now() -> Nanoseconds { base.now() }

    public mutating func sleep(until deadline: Nanoseconds) {
        base.sleep(until: deadline)
        wearer.tick(t: board.clock.seconds)
    }
}
