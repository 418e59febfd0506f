import Gestures

extension GestureEvent {
    /// When the movement began (loop seconds) and how many cycles the detector counted, for the stream's
    /// `start` and `count` fields. Today's detector reports only the kind, so both are unknown (sent as null,
    /// which the protocol allows: "where known"). When the detector's event carries them, map them here:
    /// this is the one place the stream reads them.
    var streamDetails: (start: Double?, count: Int?) { (nil, nil) }
}
