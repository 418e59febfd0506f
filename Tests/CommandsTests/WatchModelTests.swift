import Testing
@testable import Commands

/// What `watch` draws from the protocol's lines (`WatchModel`), and what it refuses to take.
@Suite struct WatchModelTests {
    @Test func watchDrawsWhatTheLinesSay() {
        var m = WatchModel()
        m.source = "/run/headtrack/events.sock"
        #expect(m.take(#"{"type":"hello","version":1,"imu":"MPU-9250","magnetometer":"AK8963","rates":{"imu_hz":200.0,"mag_hz":100.0,"display_hz":60.0,"state_hz":60.0}}"#) == "hello")
        #expect(m.take(#"{"type":"state","t":12.345,"heading_deg":123.4,"heading_valid":true,"pitch_deg":-4.4,"roll_deg":2.6,"quat":[1,0,0,0],"leds":{"nod":true,"shake":false,"north":false,"up":false,"down":false,"left":false,"right":false,"status":true}}"#) == "state")
        #expect(m.take(#"{"type":"gesture","gesture":"nod","t":9.71,"start":null,"count":null}"#) == "gesture")
        #expect(m.take(#"{"type":"gesture","gesture":"shake","t":12.96,"start":null,"count":null}"#) == "gesture")
        #expect(m.take(#"{"type":"fault","t":13.0,"active":true,"kind":"frozen_data"}"#) == "fault")
        #expect(m.take(#"{"type":"dropped","n":7}"#) == "dropped")
        #expect(m.take("not json") == "")
        let s = m.screen
        #expect(s.count == 7)
        #expect(s.allSatisfy { $0.count <= 78 })
        #expect(s[0].contains("MPU-9250 + AK8963") && s[0].contains("200 Hz"))
        #expect(s[1].contains("[NOD]") && s[1].contains("[OK]") && s[1].contains(" shake "))
        #expect(s[2].hasPrefix("heading 123° live") && s[2].contains("pitch   -4°") && s[2].contains("roll    3°"))
        #expect(s[3] == "gestures: shake 13.0 s, nod 9.7 s")  // most recent first
        #expect(s[4].contains("SENSOR FAULT frozen_data since 13.0 s"))
        #expect(s[5] == "compass: (no calibration line yet)")
        #expect(s[6].contains("7 state lines dropped"))
        // The background calibration's line: state, the fit in use, the regions holding samples, the field error.
        let cells = (0..<72).map { $0 < 20 ? "3" : "0" }.joined(separator: ",")
        #expect(m.take(#"{"type":"calibration","t":14.0,"phase":"background","state":"learning","source":"learned","progress":"learning","kept":60,"seen":900,"first":0,"points":[],"fit":{"hard_iron_ut":[1,2,3],"soft_iron":[[1,0,0],[0,1,0],[0,0,1]],"field_ut":44.0,"residual":0.02,"inliers":1,"coverage":0.2,"spread":0.3,"samples":60,"cells":["# + cells + #"]},"in_use":{"hard_iron_ut":[1,2,3],"soft_iron":[[1,0,0],[0,1,0],[0,0,1]],"field_ut":44.0,"residual":0.018,"coverage":0.27},"field_error":0.031,"refused":2}"#) == "calibration")
        #expect(m.screen[5] == "compass: learning; fit 1.8 %, 27 % covered; 20/72 regions; field 3.1 % off")
        #expect(m.take(#"{"type":"calibration","t":15.0,"phase":"turn","progress":"turn the headset","kept":3,"seen":9,"first":0,"points":[],"fit":null}"#) == "calibration")
        #expect(m.screen[5] == "compass: guided calibration: turn")
        m.take(#"{"type":"fault","t":13.5,"active":false}"#)
        #expect(m.screen[4].hasPrefix("faults: none now (1 so far"))
        m.take(#"{"type":"state","t":14,"heading_deg":null,"heading_valid":false,"pitch_deg":0,"roll_deg":0,"quat":[1,0,0,0],"leds":{}}"#)
        #expect(m.screen[2].hasPrefix("heading   --° none"))
    }

    @Test func watchIgnoresADroppedCountNoServerSends() {
        var m = WatchModel()
        #expect(m.take(#"{"type":"dropped","n":1e300}"#) == "dropped")  // Int(1e300) used to trap here
        #expect(m.take(#"{"type":"dropped","n":-5}"#) == "dropped")
        #expect(m.take(#"{"type":"dropped","n":2.5}"#) == "dropped")
        #expect(m.dropped == 0)
        m.take(#"{"type":"dropped","n":3}"#)
        m.take(#"{"type":"dropped","n":4}"#)
        #expect(m.dropped == 7)
    }

    /// `show` prints `gestures[0]` for every line `take` calls a gesture: a gesture line without its name
    /// or time (first of the stream) indexed an empty list and trapped.
    @Test func watchDoesNotCallAnUnreadableGestureLineAGesture() {
        var m = WatchModel()
        #expect(m.take(#"{"type":"gesture","t":1.0}"#) == "")
        #expect(m.take(#"{"type":"gesture","gesture":"nod"}"#) == "")
        #expect(m.gestures.isEmpty)
        #expect(m.take(#"{"type":"gesture","gesture":"nod","t":2.5}"#) == "gesture")
        #expect(m.gestures.first?.name == "nod" && m.gestures.first?.t == 2.5)
    }

    @Test func watchClipsLongNamesToEightyColumns() {
        var m = WatchModel()
        m.source = "/a/very/long/path/" + String(repeating: "x", count: 120) + ".sock"
        m.take(#"{"type":"hello","version":1,"imu":"MPU-9250","magnetometer":null,"rates":{"imu_hz":1000.0}}"#)
        #expect(m.screen.allSatisfy { $0.count <= 78 })
        #expect(m.screen[0].contains("no magnetometer"))
    }

    @Test func watchShowsTheMountFromTheHello() {
        var m = WatchModel()
        m.take(#"{"type":"hello","version":1,"imu":"MPU-9250","magnetometer":null,"rates":{"imu_hz":200.0},"mount":"-x,z,y","mount_source":"learned"}"#)
        #expect(m.screen[0].contains("mount -x,z,y (learned)"))
        m.take(#"{"type":"hello","version":1,"imu":"MPU-9250","magnetometer":null,"rates":{"imu_hz":200.0},"mount":null,"mount_source":"none"}"#)
        #expect(m.screen[0].contains("mount none"))
        #expect(m.screen.allSatisfy { $0.count <= WatchModel.width })
    }
}
