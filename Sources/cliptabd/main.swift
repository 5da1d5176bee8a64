// SPDX-License-Identifier: MIT
print("cliptabd: not ready yet")
