// SPDX-License-Identifier: MIT
import DBus

/// One row of the main interface's method table, over the clipboard service.
typealias CliptabMethod = InterfaceMethod<ClipboardService>

/// One row of an interface's method table: the method's name and arguments, and what it
/// does with the interface's target (the clipboard service, the desktop search).
///
/// The row holds no target: bound to one it becomes the `BusMethod` that the bus
/// dispatches to; unbound it only describes the method (for the introspection XML).
struct InterfaceMethod<Target> {
    /// The method's name.
    let name: String
    /// The arguments it takes.
    let inputs: [BusArgument]
    /// The values it answers.
    let outputs: [BusArgument]
    /// Decodes the call, asks the service, and answers (now, or later for a deferred one).
    let body: (Target, BusMethodCall) throws -> BusReply
    /// True for `Reload`: answered by the daemon's one reload, which the interface is given,
    /// the path SIGHUP takes too.
    private(set) var isReload = false

    /// The `Reload` method, answering the problems of the daemon's reload.
    static func reload(_ name: String, _ outputs: [BusArgument]) -> InterfaceMethod {
        var method = InterfaceMethod(name: name, inputs: [], outputs: outputs) { _, _ in .empty }
        method.isReload = true
        return method
    }

    /// A method answered at once with the values its handler returns.
    static func immediate(
        _ name: String, _ inputs: [BusArgument], _ outputs: [BusArgument],
        _ handler: @escaping (Target, CallArguments) throws -> [BusValue]
    ) -> InterfaceMethod {
        InterfaceMethod(name: name, inputs: inputs, outputs: outputs) { service, call in
            .values(try handler(service, CallArguments(call.arguments, names: inputs.map(\.name))))
        }
    }

    /// A method answered at once with a reply its handler writes straight into the message
    /// (large replies: no boxed value per element).
    static func writing(
        _ name: String, _ inputs: [BusArgument], _ outputs: [BusArgument],
        _ handler: @escaping (Target, CallArguments) throws -> (BusMessage) throws -> Void
    ) -> InterfaceMethod {
        InterfaceMethod(name: name, inputs: inputs, outputs: outputs) { service, call in
            .writing(try handler(service, CallArguments(call.arguments, names: inputs.map(\.name))))
        }
    }

    /// A method whose handler may finish later (a clipboard read): it gets a completion
    /// that sends the text, or the error, whenever it is called.
    static func deferred(
        _ name: String, _ inputs: [BusArgument], _ outputs: [BusArgument],
        _ handler:
            @escaping (Target, CallArguments, @escaping (Result<String, Error>) -> Void) throws
            -> Void
    ) -> InterfaceMethod {
        deferredReply(name, inputs, outputs, encode: { [BusValue.string($0)] }, handler)
    }

    /// A deferred method that answers the text a copy, cut, paste or delete used: the text
    /// alone, or with whether it is secret (`PerformActionWithInputs`).
    static func deferredUse(
        _ name: String, _ inputs: [BusArgument], _ outputs: [BusArgument],
        _ handler:
            @escaping (Target, CallArguments, @escaping ClipboardService.Completion) throws -> Void
    ) -> InterfaceMethod {
        let withSecret = outputs.count == 2
        return deferredReply(
            name, inputs, outputs,
            encode: { used in
                withSecret ? [.string(used.text), .boolean(used.isSecret)] : [.string(used.text)]
            },
            handler)
    }

    /// A deferred copy that answers the length of its text in UTF-8 bytes instead of the
    /// text (`CopyQuiet`): a caller that does not show the text does not pay for it twice.
    static func deferredByteCount(
        _ name: String, _ inputs: [BusArgument], _ outputs: [BusArgument],
        _ handler:
            @escaping (Target, CallArguments, @escaping ClipboardService.Completion) throws -> Void
    ) -> InterfaceMethod {
        deferredReply(
            name, inputs, outputs, encode: { [BusValue.uint64(UInt64($0.text.utf8.count))] }, handler)
    }

    /// A deferred method that answers a paste's result: its `delivered` alone
    /// (`PasteToFocus`), or with the reason (`PasteToFocusWithReason`).
    static func deferredPaste(
        _ name: String, _ inputs: [BusArgument], _ outputs: [BusArgument],
        _ handler:
            @escaping (Target, CallArguments, @escaping (Result<FocusPasteResult, Error>) -> Void)
            throws
            -> Void
    ) -> InterfaceMethod {
        let withReason = outputs.count == 2
        return deferredReply(
            name, inputs, outputs,
            encode: { result in
                withReason
                    ? [.boolean(result.delivered), .string(result.reason)] : [.boolean(result.delivered)]
            }, handler)
    }

    /// A deferred method that answers a fill's result: the rows fetched and why it stopped
    /// (`FillToFocus`).
    static func deferredFill(
        _ name: String, _ inputs: [BusArgument], _ outputs: [BusArgument],
        _ handler:
            @escaping (Target, CallArguments, @escaping (Result<FocusPasteResult, Error>) -> Void)
            throws
            -> Void
    ) -> InterfaceMethod {
        deferredReply(
            name, inputs, outputs,
            encode: { [.uint32(UInt32(clamping: $0.filled)), .string($0.reason)] }, handler)
    }

    /// A deferred method whose completion answers the values `encode` makes, or the error.
    static func deferredReply<Value>(
        _ name: String, _ inputs: [BusArgument], _ outputs: [BusArgument],
        encode: @escaping (Value) -> [BusValue],
        _ handler:
            @escaping (Target, CallArguments, @escaping (Result<Value, Error>) -> Void) throws
            -> Void
    ) -> InterfaceMethod {
        InterfaceMethod(name: name, inputs: inputs, outputs: outputs) { service, call in
            try handler(
                service, CallArguments(call.arguments, names: inputs.map(\.name), sender: call.sender)
            ) { result in
                switch result {
                case .success(let value): try? call.reply(encode(value))
                case .failure(let error): try? call.replyError(error)
                }
            }
            return .deferred
        }
    }

    /// The method dispatched to `target`, or for `Reload` to `reload`.
    func bound(to target: Target, reload: @escaping () -> [String] = { [] }) -> BusMethod {
        BusMethod(name: name, inArguments: inputs, outArguments: outputs) { [body, isReload] call in
            isReload ? .values([strings(reload())]) : try body(target, call)
        }
    }

    /// The method's description alone, for the introspection XML; it is never registered,
    /// so a call reaching it is a programming error.
    var declaration: BusMethod {
        BusMethod(name: name, inArguments: inputs, outArguments: outputs) { [name] _ in
            preconditionFailure("\(name) was called on a description of the interface")
        }
    }
}
