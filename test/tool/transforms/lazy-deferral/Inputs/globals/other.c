// The other file of lazy-deferral/globals.c: it reads shared, declares
// total and peak but never names them.
extern double total, peak, shared;
double report(void) { return shared; }
