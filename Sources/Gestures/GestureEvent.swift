/// A head gesture. Raw values are the names used in event files and on the command line.
public enum GestureEvent: String, Sendable, CaseIterable, Equatable {
    case nod, shake, up, down, left, right
}
