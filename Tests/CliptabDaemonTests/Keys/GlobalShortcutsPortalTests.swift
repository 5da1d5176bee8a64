// SPDX-License-Identifier: MIT
import CliptabDaemon
import Testing

/// The `[keys]` bindings through the GlobalShortcuts portal: the real xdg-desktop-portal
/// (1.16) with a test backend standing in for the desktop's (KDE's, GNOME's), and a stand-in
/// of a newer portal with the host registry.
@Suite(.serialized)
struct GlobalShortcutsPortalTests {
    static let requests = [
        KeyBindingRequest(id: "paste-snippets-sig", keys: "Super+Alt+I", description: "Paste snippets sig"),
        KeyBindingRequest(id: "copy-snippets-sig", keys: "Super+Alt+1", description: "Copy snippets sig"),
    ]

    /// Bound by the desktop to the converted keys, each press and release reported by id
    /// (`Activated`, `Deactivated`), and nothing for an id not bound.
    @Test func boundKeysReportPressAndRelease() throws {
        let desk = try ShortcutsDesk(.real(answer: "grant"))
        let first = desk.binder.bind(Self.requests)
        #expect(first["paste-snippets-sig"] == .notBound(reason: GlobalShortcutsBinder.waitingReason))
        #expect(first.count == 2)
        #expect(desk.pump { desk.states.count == 2 }, "\(desk.backendLog)")
        #expect(
            desk.states == [
                "paste-snippets-sig": .boundByDesktop(trigger: "LOGO+ALT+i"),
                "copy-snippets-sig": .boundByDesktop(trigger: "LOGO+ALT+1"),
            ])
        #expect(
            desk.backendLog.contains(
                "BindShortcuts paste-snippets-sig=LOGO+ALT+i copy-snippets-sig=LOGO+ALT+1\n"),
            "\(desk.backendLog)")

        try desk.desktop("activate not-cliptabs")
        try desk.desktop("activate paste-snippets-sig")
        try desk.desktop("deactivate paste-snippets-sig")
        #expect(desk.pump { desk.events.count >= 2 })
        #expect(desk.events == [.pressed(id: "paste-snippets-sig"), .released(id: "paste-snippets-sig")])
        // The portal said the host registry is not there (1.16): the binder went on.
        #expect(
            desk.registration.outcome?.hasPrefix("not offered") == true, "\(desk.registration.outcome ?? "")")
    }

    /// The person cancels the desktop's dialog: every binding not bound, saying so.
    @Test func refusalIsReported() throws {
        let desk = try ShortcutsDesk(.real(answer: "cancel"))
        _ = desk.binder.bind(Self.requests)
        #expect(desk.pump { !desk.reports.isEmpty }, "\(desk.backendLog)")
        for id in ["paste-snippets-sig", "copy-snippets-sig"] {
            guard case .notBound(let reason)? = desk.states[id] else {
                Issue.record("\(id): \(String(describing: desk.states[id]))")
                continue
            }
            #expect(reason.contains("you cancelled the desktop's shortcuts dialog"), "\(reason)")
        }
        #expect(desk.backendLog.contains("BindShortcuts cancelled"), "\(desk.backendLog)")
    }

    /// A reload binds again in the same session: the new keys are the preferred triggers,
    /// and a binding dropped from the file reports no more presses.
    @Test func reloadBindsAgainInTheSession() throws {
        let desk = try ShortcutsDesk(.real(answer: "grant"))
        _ = desk.binder.bind(Self.requests)
        #expect(desk.pump { desk.states.count == 2 }, "\(desk.backendLog)")
        desk.binder.unbindAll()
        let changed = [
            KeyBindingRequest(id: "paste-snippets-sig", keys: "Ctrl+Alt+O", description: "Paste sig")
        ]
        _ = desk.binder.bind(changed)
        #expect(desk.pump { desk.states == ["paste-snippets-sig": .boundByDesktop(trigger: "CTRL+ALT+o")] })
        #expect(desk.backendLog.components(separatedBy: "CreateSession").count == 2, "\(desk.backendLog)")
        #expect(
            desk.backendLog.hasSuffix("BindShortcuts paste-snippets-sig=CTRL+ALT+o\n"), "\(desk.backendLog)")

        try desk.desktop("activate copy-snippets-sig")
        try desk.desktop("activate paste-snippets-sig")
        #expect(desk.pump { !desk.events.isEmpty })
        #expect(desk.events == [.pressed(id: "paste-snippets-sig")])
    }

    /// A trigger the person changes in the desktop's settings is reported.
    @Test func changedTriggerIsReported() throws {
        let desk = try ShortcutsDesk(.real(answer: "grant"))
        _ = desk.binder.bind(Self.requests)
        #expect(desk.pump { desk.states.count == 2 })
        try desk.desktop("change copy-snippets-sig CTRL+F7")
        #expect(desk.pump { desk.states["copy-snippets-sig"] == .boundByDesktop(trigger: "CTRL+F7") })
        #expect(desk.states["paste-snippets-sig"] == .boundByDesktop(trigger: "LOGO+ALT+i"))
    }

    /// A session the portal closes is reported, and presses are no longer; the next bind
    /// (a reload) makes another session.
    @Test func closedSessionIsReported() throws {
        let desk = try ShortcutsDesk(.real(answer: "grant"))
        _ = desk.binder.bind(Self.requests)
        #expect(desk.pump { desk.states.count == 2 })
        try desk.desktop("close")
        #expect(
            desk.pump {
                if case .notBound(let reason)? = desk.states["paste-snippets-sig"] {
                    return reason.contains("the desktop closed cliptabd's shortcuts session")
                }
                return false
            }, "\(desk.states)")
        _ = desk.binder.bind(Self.requests)
        #expect(desk.pump { desk.states["paste-snippets-sig"] == .boundByDesktop(trigger: "LOGO+ALT+i") })
        #expect(desk.backendLog.components(separatedBy: "CreateSession").count == 3, "\(desk.backendLog)")
    }

    /// Where the portal offers the host registry, the app id is registered before the
    /// session is asked for, and the session carries it.
    @Test func registryPrecedesTheSession() throws {
        let desk = try ShortcutsDesk(.registry)
        _ = desk.binder.bind(Self.requests)
        #expect(desk.pump { desk.states.count == 2 }, "\(desk.frontendLog)")
        #expect(
            desk.frontendLog
                == "Register io.github.cliptab.Cliptab\nCreateSession app_id=io.github.cliptab.Cliptab\n"
                + "BindShortcuts paste-snippets-sig=LOGO+ALT+i copy-snippets-sig=LOGO+ALT+1\n",
            "\(desk.frontendLog)")
        #expect(desk.states["paste-snippets-sig"] == .boundByDesktop(trigger: "LOGO+ALT+i"))
        #expect(desk.registration.outcome == "registered as io.github.cliptab.Cliptab")
    }
}
