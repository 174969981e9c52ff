#include "uh.h"
int fu(void) { return UH; }
