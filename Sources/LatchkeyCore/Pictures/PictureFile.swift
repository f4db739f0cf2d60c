import Glibc

/// Clearing a user's picture folder (writes go through `DurableFile`).
enum PictureFile {
    /// Deletes the files of `folder` (leftover temporary files too).
    static func removeAll(in folder: String) {
        guard let directory = opendir(folder) else { return }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory), names.count < 10_000 {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != ".", name != ".." { names.append(name) }
        }
        for name in names { unlink(folder + "/" + name) }
    }
}
