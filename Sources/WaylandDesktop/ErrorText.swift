// SPDX-License-Identifier: MIT
import Glibc

/// `strerror(code)` as a Swift string.
func errorText(_ code: Int32) -> String { String(cString: strerror(code)) }
