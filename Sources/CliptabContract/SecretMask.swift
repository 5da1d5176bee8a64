// SPDX-License-Identifier: MIT

/// What a secret row shows in place of its text wherever a list offers it (the popup, a
/// launcher of `cliptab pick`, the desktop search): always the same length, so it says
/// nothing of the text.
public let secretMask = "••••••••"
