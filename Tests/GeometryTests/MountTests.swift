import Geometry
import Testing

/// The mount notation "forward,left,up": all 24 right-handed choices of signed axes parse, the 24 mirrored
/// ones are refused, and the result maps sensor vectors into the head frame.
@Suite struct MountTests {
    static let axes: [(String, Vector3)] = [("x", Vector3(1, 0, 0)), ("-x", Vector3(-1, 0, 0)), ("y", Vector3(0, 1, 0)),
                                            ("-y", Vector3(0, -1, 0)), ("z", Vector3(0, 0, 1)), ("-z", Vector3(0, 0, -1))]

    /// Every choice of three signed axes using each of x, y, z once: 3! orders × 2³ signs = 48.
    static var allChoices: [(text: String, f: Vector3, l: Vector3, u: Vector3)] {
        var out: [(String, Vector3, Vector3, Vector3)] = []
        for f in axes { for l in axes { for u in axes {
            let used = Set([f.0, l.0, u.0].map { $0.replacingOccurrences("-", "") })
            if used.count == 3 { out.append(("\(f.0),\(l.0),\(u.0)", f.1, l.1, u.1)) }
        } } }
        return out
    }

    /// Right-handed: the determinant of the rows (forward, left, up) is +1 (computed here as a triple product
    /// written out in components, not with the code under test).
    static func determinant(_ a: Vector3, _ b: Vector3, _ c: Vector3) -> Double {
        a.x * (b.y * c.z - b.z * c.y) - a.y * (b.x * c.z - b.z * c.x) + a.z * (b.x * c.y - b.y * c.x)
    }

    @Test func all24RightHandedChoicesParseAndThe24MirroredOnesAreRefused() throws {
        let choices = MountTests.allChoices
        #expect(choices.count == 48)
        var accepted = 0
        for c in choices {
            let rightHanded = MountTests.determinant(c.f, c.l, c.u) > 0
            if rightHanded {
                let m = try Mount(parsing: c.text)
                #expect(m.description == c.text)
                // The sensor axis named "forward" must come out as head x, "left" as y, "up" as z.
                #expect(m.apply(c.f) == Vector3(1, 0, 0) && m.apply(c.l) == Vector3(0, 1, 0) && m.apply(c.u) == Vector3(0, 0, 1))
                accepted += 1
            } else {
                #expect(throws: MountError.self, "\(c.text) is mirrored") { try Mount(parsing: c.text) }
            }
        }
        #expect(accepted == 24)
    }

    @Test func mirroredMountSaysWhatToDo() {
        do {
            _ = try Mount(parsing: "x,y,-z")
            Issue.record("x,y,-z is a mirror image")
        } catch {
            #expect(error.description.contains("left-handed"))
        }
    }

    @Test func matrixFormAndBadInput() throws {
        let m = try Mount(parsing: "0,0,-1, 0,1,0, 1,0,0")  // forward = −z, left = y, up = x
        #expect(m.apply(Vector3(0, 0, -1)) == Vector3(1, 0, 0))
        #expect(throws: MountError.self) { try Mount(parsing: "1,0,0, 0,1,0, 0,0,-1") }  // mirrored matrix
        #expect(throws: MountError.self) { try Mount(parsing: "x,x,z") }
        #expect(throws: MountError.self) { try Mount(parsing: "x,y") }
        #expect(throws: MountError.self) { try Mount(parsing: "x,y,w") }
    }
}

extension String {
    fileprivate func replacingOccurrences(_ a: String, _ b: String) -> String { split(separator: Character(a), omittingEmptySubsequences: false).joined(separator: b) }
}
