print("cliptab-bench: not written yet")
