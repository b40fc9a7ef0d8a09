// The runtime's shape; a pair takes its address, so a pair and a runtime of
// other shapes fail to link instead of misreading each other.
#define CUSHIM_RUNTIME_ABI cushim_runtime_abi_10

extern "C" {

extern const int CUSHIM_RUNTIME_ABI CUSHIM_HIDDEN;

// The address of function `index`, bound now if it was not, and stored in its
// slot; or null, with the failure noted and `*code` set to the status a stub
// returns.
void *cushim_runtime_bind(const cushim::LibraryInfo *library, std::size_t index, int *code) CUSHIM_HIDDEN;

// The C status API of every pair, by description.
int cushim_runtime_load(const cushim::LibraryInfo *library) CUSHIM_HIDDEN;
int cushim_runtime_last_status(const cushim::LibraryInfo *library) CUSHIM_HIDDEN;
const char *cushim_runtime_last_message(const cushim::LibraryInfo *library) CUSHIM_HIDDEN;
int cushim_runtime_function_status(const cushim::LibraryInfo *library, const char *name) CUSHIM_HIDDEN;
int cushim_runtime_set_library_path(const cushim::LibraryInfo *library, const char *absolute_path) CUSHIM_HIDDEN;
std::size_t cushim_runtime_resolve_all(const cushim::LibraryInfo *library, const char **missing,
                                       std::size_t capacity) CUSHIM_HIDDEN;
unsigned cushim_runtime_library_version(const cushim::LibraryInfo *library) CUSHIM_HIDDEN;
const char *cushim_runtime_library_path(const cushim::LibraryInfo *library) CUSHIM_HIDDEN;
unsigned cushim_runtime_library_open_attempts(const cushim::LibraryInfo *library) CUSHIM_HIDDEN;

// The driver's stream mode (a library without `driver` answers -1, 0, null).
int cushim_runtime_set_stream_mode(const cushim::LibraryInfo *library, int per_thread) CUSHIM_HIDDEN;
int cushim_runtime_stream_mode(const cushim::LibraryInfo *library) CUSHIM_HIDDEN;
const char *cushim_runtime_stream_mode_warning(const cushim::LibraryInfo *library) CUSHIM_HIDDEN;

// Stores the C name of status `code` in `*out`; 1 when the code is known,
// else 0 (and `*out` null).
int cushim_runtime_status_name(const cushim::LibraryInfo *library, int code, const char **out) CUSHIM_HIDDEN;
// The C name of `code`, never null.
const char *cushim_runtime_returned_name(const cushim::LibraryInfo *library, int code) CUSHIM_HIDDEN;
// What an assembly stub returns when its binding failed, in the integer
// return register: by `answer` (CUSHIM_ANSWER_*), the runtime's `code`, zero,
// or a fallback's answer from the call's first two integer arguments
// (`args[0]`, `args[1]`).
unsigned long long cushim_runtime_answer(const cushim::LibraryInfo *library, unsigned answer, int code,
                                         const unsigned long long *args) CUSHIM_HIDDEN;

// The rules of the variables, for tests: the stream mode a value asks for (0
// none, 1 legacy, 2 per-thread) and what an override value asks for (0 search,
// 1 open it, -1 refused).
int cushim_runtime_stream_value(const cushim::LibraryInfo *library, const char *value) CUSHIM_HIDDEN;
int cushim_runtime_override_value(const char *value) CUSHIM_HIDDEN;

}  // extern "C"

