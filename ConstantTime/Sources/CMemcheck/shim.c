// Intentionally empty: SwiftPM needs one source file for a C target; the header is the point.
#include "CMemcheck.h"
