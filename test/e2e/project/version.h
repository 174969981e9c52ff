/* A header found beside main.c by #include "version.h": ompi-cc must keep
 * that working when it compiles a transformed copy from elsewhere. */
#define PROJECT_VERSION "1.0"
