import Gestures
import Simulation

/// The app of a motion script: asks the script's questions at their times and takes the first nod or shake
/// after each as its answer, as an event-stream client's `ask` is answered. A reference type because the
/// loop asks it whether a question is pending while the observer tells it the gestures; made once, before
/// the loop starts, so nothing is allocated per sample.
public final class ScriptedApp {
    public struct Answer: Sendable, Equatable {
        /// When the question was asked and when it was answered (s, script time).
        public var asked: Double
        public var t: Double
        /// nil: the question timed out.
        public var gesture: GestureEvent?
    }

    public let questions: [MotionScript.ScriptedQuestion]
    /// One per question already asked and settled, in order.
    public private(set) var answers: [Answer]
    /// The next question not yet settled.
    private var next = 0

    public init(script: MotionScript) {
        questions = script.questions
        answers = []
        answers.reserveCapacity(questions.count)
    }

    /// Whether a question is pending at `t` (script time); settles one that timed out.
    public func isPending(at t: Double) -> Bool {
        guard next < questions.count, t >= questions[next].at else { return false }
        let q = questions[next]
        if t > q.at + q.timeout {
            answers.append(Answer(asked: q.at, t: q.at + q.timeout, gesture: nil))
            next += 1
            return isPending(at: t)
        }
        return true
    }

    /// A gesture the loop reported at `t`: a nod or shake answers the pending question. Returns the answer.
    @discardableResult
    public func hear(_ event: GestureEvent, at t: Double) -> Answer? {
        guard event == .nod || event == .shake, isPending(at: t) else { return nil }
        let answer = Answer(asked: questions[next].at, t: t, gesture: event)
        answers.append(answer)
        next += 1
        return answer
    }
}
