// SPDX-License-Identifier: MIT
import Glibc

/// The user who runs a test desktop (`HeadlessCompositor`) and its programs.
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

    /// The login name of the user running the tests (and the daemons they start).
    public static var currentName: String {
        guard let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name else {
            return "uid \(geteuid())"
        }
        return String(cString: name)
    }

    /// The user running the tests, as whom commands run unchanged.
    public static var current: SessionUser {
        SessionUser(name: currentName, uid: getuid(), gid: getgid(), commandPrefix: [])
    }

    /// The user for the tests' desktops that refuse root (sway): `nobody` as root, else the
    /// current user.
    public static func forTests() throws -> SessionUser {
        if getuid() != 0 { return current }
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
