import Geometry

/// `--worn F,L,U` of the simulated modes: how the simulated board sits on the simulated head, in the notation
/// of `--mount` (so `--worn=-x,z,y` is a headphone board, and `--mount=-x,z,y` is what undoes it).
enum WornOption {
    static func parse(_ arguments: inout Arguments) throws -> Mount {
        guard let text = try arguments.option("worn") else { return .identity }
        do { return try Mount(parsing: text) } catch { throw CommandError("--worn: \(error.description)", status: 2) }
    }
}
