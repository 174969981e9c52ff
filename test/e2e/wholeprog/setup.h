#ifndef SETUP_H
#define SETUP_H
extern int nsteps, verbose;
void setup(int argc);
#endif
