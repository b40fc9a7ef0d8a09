// A library is loaded once and published through an atomic state, not
// std::call_once: a fork() while another thread is loading must not leave the
// child waiting forever for a thread it does not have.
constexpr int state_empty = 0, state_loading = 1, state_ready = 2, state_forked = 3;

#ifndef _WIN32
// Every library that started loading, for the fork handler.
std::atomic<Library *> loading_libraries{nullptr};

// In the child of such a fork the load can never finish; the child gets a
// status instead of a hang (a forked child cannot use CUDA anyway).
void forked_child() {
    for (Library *s = loading_libraries.load(std::memory_order_acquire); s; s = s->next) {
        int expected = state_loading;
        s->load_state.compare_exchange_strong(expected, state_forked);
    }
}

void watch_forks(Library &s) {
    static std::atomic<bool> watching{false};
    if (!watching.exchange(true, std::memory_order_acq_rel)) pthread_atfork(nullptr, nullptr, forked_child);
    if (s.registered.exchange(true, std::memory_order_acq_rel)) return;
    Library *head = loading_libraries.load(std::memory_order_acquire);
    do {
        s.next = head;
    } while (!loading_libraries.compare_exchange_weak(head, &s, std::memory_order_acq_rel));
}
#endif

Library *loaded(const LibraryInfo &L);

// Opens the library on the loading thread: the driver from the CUDA runtime
// that hands it out (--resolve runtime-entry-point), the runtime loaded
// first, or else by its own search.
void load(const LibraryInfo &L) {
    if (L.abi_lookup && L.abi_lookup->runtime)
        open_through(L, *L.abi_lookup->runtime, loaded(*L.abi_lookup->runtime));
    else
        open_library(L);
}

// The loaded library, or null (with the reentrant status noted) when called
// back from the library's own initializer on the loading thread.
Library *loaded(const LibraryInfo &L) {
    Library &s = *L.state;
    for (unsigned spins = 0;; ++spins) {
        int state = s.load_state.load(std::memory_order_acquire);
        if (state == state_ready) return &s;
        if (state == state_forked) {
            // Only this thread exists in the child: nobody else writes `s` here.
            s.status = status_forked_during_load;
            format(s.message, sizeof s.message,
                   "this process was forked while another thread was loading the %s; the child cannot use it",
                   L.label);
            s.load_state.store(state_ready, std::memory_order_release);
            return &s;
        }
        cushim::Thread *thread = L.thread();
        if (state == state_loading && thread->loading) {
            char message[256];
            format(message, sizeof message, "a %s stub was called while the library was being loaded on the same thread",
                   L.label);
            note(L, status_reentrant, message);
            return nullptr;
        }
        if (state == state_loading) {
#ifdef _WIN32
            SwitchToThread();
#else
            if (spins < 64) sched_yield(); else usleep(50);
#endif
            continue;
        }
#ifndef _WIN32
        watch_forks(s);
#endif
        if (s.load_state.compare_exchange_strong(state, state_loading, std::memory_order_acq_rel)) {
            thread->loading = true;
#if defined(__cpp_exceptions) || defined(_CPPUNWIND)
            try {
                load(L);
            } catch (...) {
                // The library threw (from its initializer or its version
                // function) before anything was published: put the state back
                // so that the next call, on any thread, loads again. Compiled
                // without exceptions (a C program's build), nothing can throw here.
                thread->loading = false;
                s.load_state.store(state_empty, std::memory_order_release);
                throw;
            }
#else
            load(L);
#endif
            thread->loading = false;
            s.load_state.store(state_ready, std::memory_order_release);
            return &s;
        }
    }
}

