// Listing vector files with Glibc (stat, opendir, readdir) rather than Foundation's directory
// enumerator, which FoundationEssentials does not have: the vector runner links no ICU, so a
// static `mfa` stays small (docs/static-and-embedded.md).

import Glibc

/// What a path names, following symbolic links; nil when it does not exist.
enum FileKind {
    case file, directory

    init?(atPath path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        self = (info.st_mode & S_IFMT) == S_IFDIR ? .directory : .file
    }
}

enum DirectoryWalk {
    /// Paths relative to `base` of every non-directory below it, recursively. Directories
    /// reached through a symbolic link are not entered (no cycles); unreadable ones are skipped.
    static func relativeFilePaths(under base: String) -> [String] {
        var found: [String] = []
        var pending = [""]
        while let relative = pending.popLast() {
            let directory = relative.isEmpty ? base : base + "/" + relative
            guard let stream = opendir(directory) else { continue }
            defer { closedir(stream) }
            while let entry = readdir(stream) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                }
                guard name != ".", name != ".." else { continue }
                let path = relative.isEmpty ? name : relative + "/" + name
                var info = stat()
                guard lstat(base + "/" + path, &info) == 0 else { continue }
                if (info.st_mode & S_IFMT) == S_IFDIR {
                    pending.append(path)
                } else if FileKind(atPath: base + "/" + path) == .file {
                    found.append(path)
                }
            }
        }
        return found
    }
}
