// Issue 12, item 4: a stream capture in CU_STREAM_CAPTURE_MODE_GLOBAL on one
// thread, cuCtxSynchronize and cuStreamCreate on another. The same source is
// built against -lcuda and against the generated stubs (-DRACE_SHIM), so any
// difference in the counts comes from how the driver functions are reached.
//
//   race [--prewarm none|all|capture|other] [--warm N] [--skew D] [--seed K]
//        One fresh process: set up a context, then iteration 0 (the first
//        calls of every function in the race happen inside it) and N more
//        iterations (all warm). One line per iteration: which calls failed
//        and when each call started and ended, in µs after the release.
//        --prewarm (stubs only) resolves functions before the threads start:
//        all (cushim_cuda_resolve_all), capture (the capturing thread's
//        functions) or other (the other thread's functions).
//        --skew: each iteration, one thread waits a pseudo-random time
//        before its first call: s in [-D, D] µs from (K, iteration); s > 0
//        delays the other thread, s < 0 the capturing one. The same K gives
//        the same skews in every build, so variants can be compared run by run.
//        A crash (SIGSEGV, SIGBUS, SIGABRT) is reported as the outcome of the
//        iteration it happened in (fails=SIGSEGV@<call>, with the innermost
//        frames as library+offset), or as `exitcrash` after the last iteration.
//   cost   How long resolving each function of the race takes, once the
//          library is loaded: through the stubs (cushim_cuda_function_status)
//          or, linked to -lcuda, cuGetProcAddress_v2 and dlsym themselves.
//   probe  Calls made while the main thread holds a global capture open,
//          one capture per call: what each returns, and whether the capture
//          survives it (what cuStreamEndCapture answers afterwards).
#include <cuda.h>
#ifdef RACE_SHIM
#include "cuda_shim.h"
#endif

#include <dlfcn.h>
#include <execinfo.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

double micros(Clock::time_point from, Clock::time_point to) {
    return std::chrono::duration<double, std::micro>(to - from).count();
}

// What the crash handler reports: the iteration (-1 before the first, -2
// once the last is done), its skew, and on each thread the call in progress.
std::atomic<int> current_iteration{-1};
std::atomic<double> current_skew{0};
std::atomic<bool> line_printed{false};  // the iteration's line is out: a crash now is in its cleanup
thread_local const char *current_role = "driver-thread";
thread_local const char *current_call = nullptr;

void on_crash(int sig, siginfo_t *, void *) {
    // Diagnostics only: snprintf, backtrace and dladdr are not
    // async-signal-safe, but the process is lost anyway.
    void *frames[10];
    int n = backtrace(frames, 10);
    char where[512] = "";
    size_t used = 0;
    for (int i = 2, shown = 0; i < n && shown < 5 && used + 80 < sizeof where; ++i, ++shown) {
        Dl_info info;
        const char *file = "?";
        unsigned long offset = reinterpret_cast<unsigned long>(frames[i]);
        if (dladdr(frames[i], &info) && info.dli_fname) {
            file = std::strrchr(info.dli_fname, '/') ? std::strrchr(info.dli_fname, '/') + 1 : info.dli_fname;
            offset -= reinterpret_cast<unsigned long>(info.dli_fbase);
        }
        used += std::snprintf(where + used, sizeof where - used, "%s%s+0x%lx", shown ? "," : "", file, offset);
    }
    const char *name = sig == SIGSEGV ? "SIGSEGV" : sig == SIGBUS ? "SIGBUS" : "SIGABRT";
    char call[64];
    std::snprintf(call, sizeof call, "%s", current_call ? current_call : current_role);
    char line[1024];
    int it = current_iteration.load();
    if (it >= 0 && line_printed.load())
        std::snprintf(line, sizeof line, "aftercrash it=%d signal=%s thread=%s frames=%s\n", it, name, call, where);
    else if (it >= 0)
        std::snprintf(line, sizeof line, "it=%d skew=%.1f fail=1 fails=%s@%s crash=1 frames=%s\n", it,
                      current_skew.load(), name, call, where);
    else
        std::snprintf(line, sizeof line, "%s signal=%s thread=%s frames=%s\n",
                      it == -2 ? "exitcrash" : "setupcrash", name, call, where);
    ssize_t ignored = write(1, line, std::strlen(line));
    (void)ignored;
    _exit(3);
}

void catch_crashes() {
    void *warm_up[2];
    backtrace(warm_up, 2);  // loads what backtrace needs before any crash
    struct sigaction action;
    std::memset(&action, 0, sizeof action);
    action.sa_sigaction = on_crash;
    action.sa_flags = SA_SIGINFO;
    sigemptyset(&action.sa_mask);
    for (int sig : {SIGSEGV, SIGBUS, SIGABRT}) sigaction(sig, &action, nullptr);
    current_role = "main";
}

// Setup failures end the process: they are not part of the race.
void must(CUresult rc, const char *what) {
    if (rc == CUDA_SUCCESS) return;
#ifdef RACE_SHIM
    std::printf("setup failed: %s -> %d (%s)\n", what, static_cast<int>(rc), cushim_cuda_last_message());
#else
    std::printf("setup failed: %s -> %d\n", what, static_cast<int>(rc));
#endif
    std::exit(2);
}

struct Setup {
    CUcontext ctx = nullptr;
    CUstream capture = nullptr;  // the stream thread A captures
    CUdeviceptr buffer = 0;
    size_t words = 1 << 20;
};

// Only functions that the race itself does not call: the race's functions
// must reach iteration 0 unresolved.
Setup set_up() {
    Setup s;
    must(cuInit(0), "cuInit");
    CUdevice dev = 0;
    must(cuDeviceGet(&dev, 0), "cuDeviceGet");
    must(cuDevicePrimaryCtxRetain(&s.ctx, dev), "cuDevicePrimaryCtxRetain");
    must(cuCtxSetCurrent(s.ctx), "cuCtxSetCurrent");
    must(cuMemAlloc(&s.buffer, s.words * 4), "cuMemAlloc");
    must(cuStreamCreateWithPriority(&s.capture, CU_STREAM_NON_BLOCKING, 0), "cuStreamCreateWithPriority");
    return s;
}

// One timed driver call of the race.
struct Step {
    const char *name;
    bool ran = false;
    CUresult rc = CUDA_SUCCESS;
    double start = 0, end = 0;
};

template <class Call>
void timed(Step &step, Clock::time_point t0, Call call) {
    step.ran = true;
    current_call = step.name;
    step.start = micros(t0, Clock::now());
    step.rc = call();
    step.end = micros(t0, Clock::now());
    current_call = nullptr;
}

// Both threads spin until main releases them together; t0 is the release.
// A thread with a delay then spins until t0 + delay.
struct Start {
    std::atomic<int> ready{0};
    std::atomic<bool> go{false};
    Clock::time_point t0;

    void arrive_and_wait(double delay_us) {
        ready.fetch_add(1, std::memory_order_acq_rel);
        while (!go.load(std::memory_order_acquire)) {
        }
        auto until = t0 + std::chrono::nanoseconds(static_cast<long long>(delay_us * 1000));
        while (Clock::now() < until) {
        }
    }
    void release(int threads) {
        while (ready.load(std::memory_order_acquire) < threads) {
        }
        t0 = Clock::now();
        go.store(true, std::memory_order_release);
    }
};

// Thread A: begin a global capture, record one memset, end the capture.
void capture_thread(const Setup &s, Start &start, double delay, unsigned value, Step *steps, CUgraph *graph) {
    current_role = "A(between calls)";
    must(cuCtxSetCurrent(s.ctx), "cuCtxSetCurrent (thread A)");
    start.arrive_and_wait(delay);
    timed(steps[0], start.t0, [&] { return cuStreamBeginCapture(s.capture, CU_STREAM_CAPTURE_MODE_GLOBAL); });
    if (steps[0].rc != CUDA_SUCCESS) return;
    timed(steps[1], start.t0, [&] { return cuMemsetD32Async(s.buffer, value, s.words, s.capture); });
    timed(steps[2], start.t0, [&] { return cuStreamEndCapture(s.capture, graph); });
}

// Thread B: synchronize the context and create a stream, twice.
void other_thread(const Setup &s, Start &start, double delay, Step *steps, CUstream *made) {
    current_role = "B(between calls)";
    must(cuCtxSetCurrent(s.ctx), "cuCtxSetCurrent (thread B)");
    start.arrive_and_wait(delay);
    timed(steps[0], start.t0, [] { return cuCtxSynchronize(); });
    timed(steps[1], start.t0, [&] { return cuStreamCreate(&made[0], CU_STREAM_DEFAULT); });
    timed(steps[2], start.t0, [] { return cuCtxSynchronize(); });
    timed(steps[3], start.t0, [&] { return cuStreamCreate(&made[1], CU_STREAM_DEFAULT); });
}

// The skews of one process: a std::mt19937_64 seeded with K (its output is
// fixed by the standard, so every build draws the same sequence), mapped
// to [-range, range] by hand.
std::vector<double> skews(unsigned long long seed, int count, double range) {
    std::mt19937_64 engine(seed);
    std::vector<double> out;
    for (int i = 0; i < count; ++i) {
        double unit = static_cast<double>(engine() >> 11) / 9007199254740992.0;  // [0, 1)
        out.push_back(range > 0 ? (2 * unit - 1) * range : 0.0);
    }
    return out;
}

// One iteration: both threads, joined, then one line and the cleanup.
bool iteration(const Setup &s, int index, double skew) {
    Step a[3] = {{"A.begin"}, {"A.memset"}, {"A.end"}};
    Step b[4] = {{"B.sync1"}, {"B.create1"}, {"B.sync2"}, {"B.create2"}};
    CUgraph graph = nullptr;
    CUstream made[2] = {nullptr, nullptr};
    Start start;
    double delay_a = skew < 0 ? -skew : 0, delay_b = skew > 0 ? skew : 0;
    std::thread ta(capture_thread, std::cref(s), std::ref(start), delay_a, static_cast<unsigned>(index), a, &graph);
    std::thread tb(other_thread, std::cref(s), std::ref(start), delay_b, b, made);
    start.release(2);
    ta.join();
    tb.join();

    std::vector<const Step *> all;
    for (const Step &x : a) all.push_back(&x);
    for (const Step &x : b) all.push_back(&x);
    // The failures in the order they returned: the first is the cause, the
    // rest (A.end answering 901) its consequences.
    std::vector<const Step *> failed;
    for (const Step *x : all)
        if (x->ran && x->rc != CUDA_SUCCESS) failed.push_back(x);
    std::sort(failed.begin(), failed.end(), [](const Step *l, const Step *r) { return l->end < r->end; });
    std::string fails = failed.empty() ? "-" : "";
    for (const Step *x : failed) {
        if (!fails.empty()) fails += ',';
        fails += std::string(x->name) + ":" + std::to_string(static_cast<int>(x->rc));
    }
    std::printf("it=%d skew=%.1f fail=%d fails=%s", index, skew, failed.empty() ? 0 : 1, fails.c_str());
    for (const Step *x : all) {
        if (x->ran)
            std::printf(" %s=%.2f/%.2f", x->name, x->start, x->end);
        else
            std::printf(" %s=-", x->name);
    }
    std::printf("\n");
    line_printed.store(true);

    if (graph) must(cuGraphDestroy(graph), "cuGraphDestroy");
    for (CUstream m : made)
        if (m) must(cuStreamDestroy(m), "cuStreamDestroy");
    return failed.empty();
}

// The functions each thread of the race calls, by the names cuda.h maps them to.
const char *const capture_functions[] = {"cuStreamBeginCapture_v2", "cuMemsetD32Async", "cuStreamEndCapture"};
const char *const other_functions[] = {"cuCtxSynchronize", "cuStreamCreate"};

#ifdef RACE_SHIM
void prewarm(const char *which) {
    if (std::strcmp(which, "all") == 0) {
        // Functions newer than the driver stay missing; that is expected.
        size_t missing = cushim_cuda_resolve_all(nullptr, 0);
        if (missing == static_cast<size_t>(-1)) must(CUDA_ERROR_NOT_INITIALIZED, "cushim_cuda_resolve_all");
        return;
    }
    bool capture = std::strcmp(which, "capture") == 0, other = std::strcmp(which, "other") == 0;
    if (!capture && !other) {
        std::printf("unknown --prewarm %s\n", which);
        std::exit(2);
    }
    for (const char *name : capture_functions)
        if (capture && cushim_cuda_function_status(name) != CUSHIM_CUDA_OK) must(CUDA_ERROR_NOT_FOUND, name);
    for (const char *name : other_functions)
        if (other && cushim_cuda_function_status(name) != CUSHIM_CUDA_OK) must(CUDA_ERROR_NOT_FOUND, name);
}
#endif

int race(int argc, char **argv) {
    const char *warm_with = "none";
    int warm_iterations = 0;
    double range = 0;
    unsigned long long seed = 0;
    for (int i = 2; i + 1 < argc; i += 2) {
        if (std::strcmp(argv[i], "--prewarm") == 0)
            warm_with = argv[i + 1];
        else if (std::strcmp(argv[i], "--warm") == 0)
            warm_iterations = std::atoi(argv[i + 1]);
        else if (std::strcmp(argv[i], "--skew") == 0)
            range = std::atof(argv[i + 1]);
        else if (std::strcmp(argv[i], "--seed") == 0)
            seed = std::strtoull(argv[i + 1], nullptr, 10);
        else {
            std::printf("unknown option %s\n", argv[i]);
            return 2;
        }
    }
    Setup s = set_up();
    if (std::strcmp(warm_with, "none") != 0) {
#ifdef RACE_SHIM
        prewarm(warm_with);
#else
        std::printf("--prewarm needs the stubs\n");
        return 2;
#endif
    }
    std::vector<double> skew = skews(seed, warm_iterations + 1, range);
    for (int i = 0; i <= warm_iterations; ++i) {
        current_skew.store(skew[i]);
        current_iteration.store(i);
        line_printed.store(false);
        iteration(s, i, skew[i]);
    }
    current_iteration.store(-2);
    return 0;
}

// The ABI version each base name is asked for, as the stubs ask.
struct Named {
    const char *base;    // the name cuGetProcAddress takes
    const char *symbol;  // the export with that ABI
    int version;
};
const Named race_functions[] = {
    {"cuStreamBeginCapture", "cuStreamBeginCapture_v2", 10010}, {"cuMemsetD32Async", "cuMemsetD32Async", 3020},
    {"cuStreamEndCapture", "cuStreamEndCapture", 10000},       {"cuCtxSynchronize", "cuCtxSynchronize", 2000},
    {"cuStreamCreate", "cuStreamCreate", 2000},                 {"cuGraphDestroy", "cuGraphDestroy", 10000},
    {"cuStreamDestroy", "cuStreamDestroy_v2", 4000},
};

int cost() {
    set_up();
    for (const Named &f : race_functions) {
#ifdef RACE_SHIM
        auto t = Clock::now();
        cushim_cuda_status first = cushim_cuda_function_status(f.symbol);
        auto t1 = Clock::now();
        cushim_cuda_function_status(f.symbol);  // bound now: the table scan alone
        auto t2 = Clock::now();
        std::printf("cost %s stub_first_us=%.2f stub_again_us=%.2f status=%d\n", f.symbol, micros(t, t1),
                    micros(t1, t2), static_cast<int>(first));
#else
        void *p = nullptr;
        CUdriverProcAddressQueryResult found = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
        auto t = Clock::now();
        CUresult rc = cuGetProcAddress(f.base, &p, f.version, CU_GET_PROC_ADDRESS_LEGACY_STREAM, &found);
        auto t1 = Clock::now();
        cuGetProcAddress(f.base, &p, f.version, CU_GET_PROC_ADDRESS_LEGACY_STREAM, &found);
        auto t2 = Clock::now();
        void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
        auto t3 = Clock::now();
        void *q = lib ? dlsym(lib, f.symbol) : nullptr;
        auto t4 = Clock::now();
        std::printf("cost %s getproc_first_us=%.2f getproc_again_us=%.2f dlsym_us=%.2f rc=%d same=%d\n", f.symbol,
                    micros(t, t1), micros(t1, t2), micros(t3, t4), static_cast<int>(rc), p == q ? 1 : 0);
#endif
    }
    return 0;
}

// One probe: `call` runs on a new thread (or on the capturing thread itself)
// while the main thread's global capture is open.
template <class Call>
void probe_one(const Setup &s, const char *what, bool same_thread, Call call) {
    must(cuStreamBeginCapture(s.capture, CU_STREAM_CAPTURE_MODE_GLOBAL), "probe begin");
    CUresult rc = CUDA_SUCCESS;
    double us = 0;
    auto run = [&] {
        auto t = Clock::now();
        rc = call();
        us = micros(t, Clock::now());
    };
    if (same_thread) {
        run();
    } else {
        std::thread t([&] {
            must(cuCtxSetCurrent(s.ctx), "probe thread cuCtxSetCurrent");
            run();
        });
        t.join();
    }
    CUresult memset = cuMemsetD32Async(s.buffer, 1, s.words, s.capture);
    CUgraph graph = nullptr;
    CUresult end = cuStreamEndCapture(s.capture, &graph);
    if (graph) must(cuGraphDestroy(graph), "probe cuGraphDestroy");
    std::printf("probe %-50s rc=%-4d us=%9.2f memset_after=%-4d end_capture=%d%s\n", what, static_cast<int>(rc), us,
                static_cast<int>(memset), static_cast<int>(end),
                end == CUDA_SUCCESS ? " (capture intact)" : " (capture invalidated)");
}

int probe() {
    Setup s = set_up();
    CUstream spare = nullptr;
    must(cuStreamCreateWithPriority(&spare, CU_STREAM_NON_BLOCKING, 0), "spare stream");
    CUstream made = nullptr;
    CUdeviceptr memory = 0;
    void *p = nullptr;
    CUdriverProcAddressQueryResult found = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    CUdevice dev = 0;
    unsigned flags = 0, api = 0;
    int version = 0;
    // First calls (cuCtxGetDevice, cuCtxGetFlags, cuCtxGetApiVersion are not
    // called anywhere before): through the stubs, these resolve inside the capture.
    probe_one(s, "other thread: first call cuCtxGetDevice", false, [&] { return cuCtxGetDevice(&dev); });
    probe_one(s, "other thread: first call cuCtxGetFlags", false, [&] { return cuCtxGetFlags(&flags); });
    probe_one(s, "capturing thread: first call cuCtxGetApiVersion", true,
              [&] { return cuCtxGetApiVersion(s.ctx, &api); });
    probe_one(s, "other thread: cuGetProcAddress(cuMemFree)", false, [&] {
        return cuGetProcAddress("cuMemFree", &p, 3020, CU_GET_PROC_ADDRESS_LEGACY_STREAM, &found);
    });
    probe_one(s, "capturing thread: cuGetProcAddress(cuMemcpyHtoD)", true, [&] {
        return cuGetProcAddress("cuMemcpyHtoD", &p, 3020, CU_GET_PROC_ADDRESS_LEGACY_STREAM, &found);
    });
    probe_one(s, "other thread: cuDriverGetVersion", false, [&] { return cuDriverGetVersion(&version); });
    probe_one(s, "other thread: cuCtxSynchronize", false, [] { return cuCtxSynchronize(); });
    probe_one(s, "other thread: cuStreamCreate(CU_STREAM_DEFAULT)", false, [&] {
        CUresult rc = cuStreamCreate(&made, CU_STREAM_DEFAULT);
        if (rc == CUDA_SUCCESS) must(cuStreamDestroy(made), "probe destroy");
        return rc;
    });
    probe_one(s, "other thread: cuStreamCreate(CU_STREAM_NON_BLOCKING)", false, [&] {
        CUresult rc = cuStreamCreate(&made, CU_STREAM_NON_BLOCKING);
        if (rc == CUDA_SUCCESS) must(cuStreamDestroy(made), "probe destroy");
        return rc;
    });
    probe_one(s, "other thread: cuStreamDestroy(non-blocking stream)", false, [&] { return cuStreamDestroy(spare); });
    probe_one(s, "other thread: cuMemAlloc", false, [&] {
        CUresult rc = cuMemAlloc(&memory, 4096);
        if (rc == CUDA_SUCCESS) must(cuMemFree(memory), "probe free");
        return rc;
    });
    return 0;
}

}  // namespace

int main(int argc, char **argv) {
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    catch_crashes();
    const char *mode = argc > 1 ? argv[1] : "";
    if (std::strcmp(mode, "race") == 0) return race(argc, argv);
    if (std::strcmp(mode, "cost") == 0) return cost();
    if (std::strcmp(mode, "probe") == 0) return probe();
    std::fprintf(stderr, "usage: %s race [--prewarm none|all|capture|other] [--warm N] [--skew D] [--seed K] | cost | probe\n", argv[0]);
    return 2;
}
