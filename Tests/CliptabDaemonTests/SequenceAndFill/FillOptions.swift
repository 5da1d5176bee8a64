// SPDX-License-Identifier: MIT
import DBus

/// The `a{sv}` options of a `FillToFocus` call.
func fillOptions(_ values: [String: BusValue]) -> BusValue {
    .dictionary(
        keySignature: "s", valueSignature: "v",
        values.sorted { $0.key < $1.key }.map { (BusValue.string($0.key), BusValue.variant($0.value)) })
}
