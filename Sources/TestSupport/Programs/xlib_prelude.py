# SPDX-License-Identifier: MIT
import ctypes, ctypes.util, json, select, sys, time
x = ctypes.cdll.LoadLibrary(ctypes.util.find_library('X11'))
P, L, I = ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int
x.XOpenDisplay.restype = P; x.XOpenDisplay.argtypes = [ctypes.c_char_p]
x.XDefaultRootWindow.restype = L; x.XDefaultRootWindow.argtypes = [P]
x.XCreateSimpleWindow.restype = L
x.XCreateSimpleWindow.argtypes = [P, L, I, I, ctypes.c_uint, ctypes.c_uint, ctypes.c_uint, L, L]
x.XInternAtom.restype = L; x.XInternAtom.argtypes = [P, ctypes.c_char_p, I]
x.XGetAtomName.restype = ctypes.c_char_p; x.XGetAtomName.argtypes = [P, L]
x.XChangeProperty.argtypes = [P, L, L, L, I, I, P, I]
x.XDeleteProperty.argtypes = [P, L, L]
x.XConvertSelection.argtypes = [P, L, L, L, L, L]
x.XSetSelectionOwner.argtypes = [P, L, L, L]
x.XSelectInput.argtypes = [P, L, ctypes.c_long]
x.XDestroyWindow.argtypes = [P, L]
x.XPending.argtypes = [P]; x.XNextEvent.argtypes = [P, P]
x.XFlush.argtypes = [P]; x.XSync.argtypes = [P, I]
x.XConnectionNumber.argtypes = [P]
x.XGetWindowProperty.argtypes = [P, L, L, ctypes.c_long, ctypes.c_long, I, L,
    ctypes.POINTER(L), ctypes.POINTER(I), ctypes.POINTER(L), ctypes.POINTER(L), ctypes.POINTER(P)]

