// fontconfig's font list and character sets: which characters the installed fonts have.
// Imported only by the InstalledFonts module.
#include <fontconfig/fontconfig.h>
