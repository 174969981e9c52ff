/* The other file of root-broadcast-direct.c. It writes limit, depth and
   hooked (reset_limit, reset_depth), but log_start writes none of them: the program's
   facts say what each function may write (ProgramFacts::mayWrite), so a
   call of log_start after the root's pack or broadcast cannot undo it.
   log_reset calls reset_limit; log_hook calls through a pointer (unknown). */
extern int limit, depth, hooked;
int counter;
void (*hook)(void);

static void bump(void) { counter++; }
void reset_limit(void) { limit = 0; }
void reset_depth(void) {
  depth = 0;
  hooked = 0;
}
void log_start(void) { bump(); }
void log_reset(void) { reset_limit(); }
void log_hook(void) {
  if (hook)
    hook();
}
