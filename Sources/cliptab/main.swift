// SPDX-License-Identifier: MIT
print("cliptab: not ready yet")
