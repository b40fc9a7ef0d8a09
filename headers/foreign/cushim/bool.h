/* cushim's own, not a stand-in for another project's header: C's `bool`, read
 * only while parsing, as C, a header that names `bool` without including
 * <stdbool.h> (CUPTI 13.1's cupti_profiler_target.h, which its C++ users
 * compile). The C++ stubs never see this file. */
#ifndef CUSHIM_FOREIGN_BOOL_H
#define CUSHIM_FOREIGN_BOOL_H
#ifndef __cplusplus
#include <stdbool.h>
#endif
#endif
