/* MulticoreBSP for C compatibility: programs that include <mcbsp.h> get the
 * MulticoreBSP API (unsigned process numbers, size_t sizes, bsp_direct_get)
 * on top of the BSPlib layer of libompi-rt. See <bsp.h>. */
#ifndef MPIOPT_MCBSP_H
#define MPIOPT_MCBSP_H
#ifndef MPIOPT_BSP_MULTICOREBSP
#define MPIOPT_BSP_MULTICOREBSP 1
#endif
#include <bsp.h>
#endif
