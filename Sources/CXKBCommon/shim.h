/* libxkbcommon's keysym names, the same names Xlib's XStringToKeysym reads. */
#include <xkbcommon/xkbcommon.h>
