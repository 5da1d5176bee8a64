// SPDX-License-Identifier: MIT
import Posix
import TestSupport
import Testing

/// `cliptab pick` of a template row asks each `{input:…}` through the same launcher, one
/// line each (the default offered as the only line), then copies the row filled in.
@Suite(.serialized)
struct PickTemplateTests {
    @Test func inputsAreAskedThroughTheLauncher() throws {
        let fixture = try MenuFixture()
        #expect(try fixture.cliptab("create", "t").exitCode == 0)
        try fixture.cliptab("add", "t", "hi {input:Name=you} on {input:Day}")
        _ = try fixture.session.call("SetTemplates", [.string("t"), .boolean(true)])
        let launcher = fixture.data.appending("launcher")
        let asked = fixture.data.appending("asked")
        // Chooses the numbered row; answers an offered default with it and "!", and types
        // "monday" where nothing is offered; records what each run was given.
        try PickTests().script(
            launcher,
            """
            IFS= read -r first
            printf '[%s]' "$first" >> "\(asked)"
            case "$first" in
            1*) printf '%s\\n' "$first" ;;
            "") echo monday ;;
            *) printf '%s!\\n' "$first" ;;
            esac
            """)
        let result = try fixture.cliptab("pick", "t", "--launcher", launcher, "--action", "copy")
        #expect(result.exitCode == 0, "\(result.errorText)")
        #expect(try fixture.clipboard() == "hi you! on monday")
        #expect(PickTests().contents(asked) == "[1\thi {input:Name=you} on {input:Day}][you][]")
        // A launcher closed at an input: nothing chosen, nothing copied.
        try PickTests().script(
            launcher, "IFS= read -r first\ncase \"$first\" in 1*) echo \"$first\" ;; *) exit 1 ;; esac")
        try fixture.cliptab("copy", "t", "0:0", "--raw")
        let cancelled = try fixture.cliptab("pick", "t", "--launcher", launcher, "--action", "copy")
        #expect(cancelled.exitCode == 1 && cancelled.errorText == "cliptab: nothing chosen\n")
        #expect(try fixture.clipboard() == "hi {input:Name=you} on {input:Day}")
    }
}
