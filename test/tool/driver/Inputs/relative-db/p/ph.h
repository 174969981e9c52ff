#include "uh.h"
