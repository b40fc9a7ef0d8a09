//! One library's state in a process: opened once, on the first call of any
//! of its shims, from any thread; a failure is kept like a success.

use std::cell::Cell;
#[cfg(unix)]
use std::ffi::c_int;
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU8, AtomicUsize, Ordering};

use crate::error::LoadError;
use crate::info::{LibraryInfo, StreamMode};
use crate::loaded::Loaded;
use crate::search::search_counting;
use crate::stream::{ModeCell, StreamModeLocked};

// The library is loaded once, published through an atomic pointer. Not a
// OnceLock: a fork() while another thread is loading must not leave the
// child waiting forever for a thread it does not have (see `forked_child`).
const EMPTY: u8 = 0;
const LOADING: u8 = 1;
const READY: u8 = 2;
const FORKED: u8 = 3;

/// A generated module's library: its description and its loading state.
/// Each module has one, as a `static`; shims of several modules (or several
/// releases of one library) never share one.
pub struct Library {
    info: &'static LibraryInfo,
    state: AtomicU8,
    loaded: AtomicPtr<Result<Loaded, LoadError>>,
    open_attempts: AtomicUsize,
    last_error: AtomicPtr<LoadError>,
    reentrant: LoadError,
    forked: LoadError,
    /// The default-stream mode and whether it is fixed.
    mode: ModeCell,
    /// The next library in the list the fork handler walks.
    next: AtomicPtr<Library>,
    listed: AtomicBool,
}

impl std::fmt::Debug for Library {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Library")
            .field("label", &self.info.label)
            .finish_non_exhaustive()
    }
}

thread_local! {
    static LOADING_HERE: Cell<bool> = const { Cell::new(false) };
}

/// Every library whose load has started, for the fork handler.
static LISTED: AtomicPtr<Library> = AtomicPtr::new(std::ptr::null_mut());

#[cfg(unix)]
unsafe extern "C" {
    fn pthread_atfork(
        prepare: Option<extern "C" fn()>,
        parent: Option<extern "C" fn()>,
        child: Option<extern "C" fn()>,
    ) -> c_int;
}

/// In the child of a fork made while another thread was loading: that
/// thread is not in the child, so the load can never finish there. The
/// child gets a typed error instead of a hang (as with the real driver, a
/// forked child cannot use CUDA anyway).
#[cfg(unix)]
extern "C" fn forked_child() {
    let mut p = LISTED.load(Ordering::Acquire);
    // SAFETY: only `&'static Library` values are listed, never removed.
    while let Some(library) = unsafe { p.as_ref() } {
        let _ =
            library
                .state
                .compare_exchange(LOADING, FORKED, Ordering::AcqRel, Ordering::Acquire);
        p = library.next.load(Ordering::Acquire);
    }
}

fn watch_forks() {
    #[cfg(unix)]
    {
        static WATCHING: AtomicBool = AtomicBool::new(false);
        if !WATCHING.swap(true, Ordering::AcqRel) {
            // SAFETY: registers a handler that only touches atomics.
            unsafe { pthread_atfork(None, None, Some(forked_child)) };
        }
    }
}

impl Library {
    /// The state of a library not yet loaded, described by `info`.
    #[must_use]
    pub const fn new(info: &'static LibraryInfo) -> Library {
        Library {
            info,
            state: AtomicU8::new(EMPTY),
            loaded: AtomicPtr::new(std::ptr::null_mut()),
            open_attempts: AtomicUsize::new(0),
            last_error: AtomicPtr::new(std::ptr::null_mut()),
            reentrant: LoadError::Reentrant { library: info },
            forked: LoadError::ForkedDuringLoad { library: info },
            mode: ModeCell::new(),
            next: AtomicPtr::new(std::ptr::null_mut()),
            listed: AtomicBool::new(false),
        }
    }

    /// What the generated module says about the library.
    #[must_use]
    pub fn info(&self) -> &'static LibraryInfo {
        self.info
    }

    fn list(&'static self) {
        if self.listed.swap(true, Ordering::AcqRel) {
            return;
        }
        let me = std::ptr::from_ref(self).cast_mut();
        let mut head = LISTED.load(Ordering::Acquire);
        loop {
            self.next.store(head, Ordering::Release);
            match LISTED.compare_exchange(head, me, Ordering::AcqRel, Ordering::Acquire) {
                Ok(_) => return,
                Err(now) => head = now,
            }
        }
    }

    /// The library, opened on the first call from any thread. A failure is
    /// cached like a success: later calls return it without trying again.
    ///
    /// # Errors
    /// Why no usable library could be loaded, the same for every later call.
    pub fn get(&'static self) -> Result<&'static Loaded, &'static LoadError> {
        let mut spins = 0u32;
        loop {
            match self.state.load(Ordering::Acquire) {
                READY => {
                    // SAFETY: READY is published after `loaded` holds a leaked, never-freed box.
                    let r = unsafe { &*self.loaded.load(Ordering::Acquire) };
                    return r.as_ref().map_err(|e| self.note(e));
                }
                FORKED => return Err(self.note(&self.forked)),
                LOADING if LOADING_HERE.with(Cell::get) => return Err(self.note(&self.reentrant)),
                LOADING => {
                    // Another thread is loading: a dlopen takes about a millisecond.
                    spins += 1;
                    if spins < 64 {
                        std::thread::yield_now();
                    } else {
                        std::thread::sleep(std::time::Duration::from_micros(50));
                    }
                }
                _ => {
                    watch_forks();
                    self.list();
                    if self
                        .state
                        .compare_exchange(EMPTY, LOADING, Ordering::AcqRel, Ordering::Acquire)
                        .is_ok()
                    {
                        LOADING_HERE.with(|l| l.set(true));
                        let found = search_counting(self.info, &self.open_attempts).found;
                        let loaded: &'static Result<Loaded, LoadError> = Box::leak(Box::new(found));
                        self.loaded
                            .store(std::ptr::from_ref(loaded).cast_mut(), Ordering::Release);
                        self.state.store(READY, Ordering::Release);
                        LOADING_HERE.with(|l| l.set(false));
                    }
                }
            }
        }
    }

    /// How many times this library's loader called the platform's library loader.
    #[must_use]
    pub fn open_attempts(&self) -> usize {
        self.open_attempts.load(Ordering::Relaxed)
    }

    /// The most recent loading failure seen by any of its shims, if any.
    #[must_use]
    pub fn last_error(&self) -> Option<&'static LoadError> {
        let p = self.last_error.load(Ordering::Acquire);
        // SAFETY: only `&'static LoadError` values are ever stored.
        unsafe { p.as_ref() }
    }

    pub(crate) fn note(&self, e: &'static LoadError) -> &'static LoadError {
        self.last_error
            .store(std::ptr::from_ref(e).cast_mut(), Ordering::Release);
        e
    }

    /// Chooses the default-stream mode of this library's shims. Only before
    /// the first of them is bound; afterwards it says so and changes nothing.
    ///
    /// # Errors
    /// The mode in force, when a function is already bound.
    pub fn set_stream_mode(&self, mode: StreamMode) -> Result<(), StreamModeLocked> {
        self.mode.set(mode)
    }

    /// The mode in force, fixed from the first binding on.
    #[must_use]
    pub fn stream_mode(&self) -> StreamMode {
        self.mode.current(self.info.default_stream)
    }

    /// Whether the per-thread variants are in force, fixing the mode as a
    /// first binding does: the linked shims' choice between a symbol and
    /// its twin.
    #[must_use]
    pub fn per_thread_now(&self) -> bool {
        self.lock_stream_mode() == StreamMode::PerThread
    }

    /// Fixes the mode, as the first binding does, and returns it.
    pub(crate) fn lock_stream_mode(&self) -> StreamMode {
        self.mode.lock(self.info.default_stream)
    }
}
