// SPDX-License-Identifier: MIT
import TestSupport

/// A selection requestor that misbehaves on purpose, as Python over libX11 (ctypes): run as
/// `python3 -c xRequestorScript MODE N`.
///
/// `multiple N` asks for the CLIPBOARD as MULTIPLE with N (UTF8_STRING, property) pairs and
/// never reads the properties; `stall N` asks for UTF8_STRING, and when the answer is an
/// INCR transfer, never takes a chunk, sleeping N seconds. Both print `notified` once the
/// owner's SelectionNotify came (`silent` after 10 s without it), then `end`.
public let xRequestorScript =
    xlibPythonPrelude + HelperPrograms.source("x_requestor.py")
