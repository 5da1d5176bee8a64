// SPDX-License-Identifier: MIT
import Glibc

/// The unprivileged user who runs a test desktop (`HeadlessSway`) and its programs.
///
/// As root it is `nobody`, which every system has, so that no account is made on the
/// machine; as any other user it is that user, and nothing changes identity.
public struct SessionUser: Sendable {
    /// The login name.
    public let name: String
    /// The user id.
    public let uid: uid_t
    /// The primary group id.
    public let gid: gid_t
    /// What runs a command as this user: `setpriv` when the test runs as root (with no
    /// supplementary groups), nothing otherwise.
    public let commandPrefix: [String]

    /// The user for the tests' desktops: `nobody` as root, else the current user.
    public static func forTests() throws -> SessionUser {
        if getuid() != 0 {
            let entry = getpwuid(getuid())
            let name = entry.map { String(cString: $0.pointee.pw_name) } ?? "uid \(getuid())"
            return SessionUser(name: name, uid: getuid(), gid: getgid(), commandPrefix: [])
        }
        guard let entry = getpwnam("nobody") else {
            throw FixtureError("the test desktop runs as nobody, and this system has no user nobody")
        }
        let uid = entry.pointee.pw_uid
        let gid = entry.pointee.pw_gid
        return SessionUser(
            name: "nobody", uid: uid, gid: gid,
            commandPrefix: ["setpriv", "--reuid=\(uid)", "--regid=\(gid)", "--clear-groups", "--"])
    }
}
