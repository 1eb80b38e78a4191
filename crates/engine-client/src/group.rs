//! The engine and whatever it starts, as one process group (Unix): the
//! engine leads a group of its own, which its children join unless they
//! leave it, so ending the engine ends a wrapper script's children too
//! (killing the engine's own process alone left them running). Elsewhere
//! only the engine's own process is ended.
//!
//! The groups of the engines alive are listed, so that a program
//! interrupted (Ctrl-C, SIGTERM) can end them all before it exits: the
//! terminal's signal no longer reaches them, being outside its group.

use std::process::{Child, Command};
use std::sync::Mutex;

/// Process-group ids (the leaders' pids) of the engines alive.
static LIVE: Mutex<Vec<u32>> = Mutex::new(Vec::new());

/// Lists the group `child` leads among the engines alive.
pub(crate) fn register(child: &Child) {
    LIVE.lock()
        .unwrap_or_else(|e| e.into_inner())
        .push(child.id());
}

/// SIGKILL to the group of every engine alive in this process: for a
/// program that is being interrupted (its `Engine`s will not be dropped).
pub fn kill_all() {
    let live = std::mem::take(&mut *LIVE.lock().unwrap_or_else(|e| e.into_inner()));
    for pgid in live {
        signal_group(pgid);
    }
}

/// Makes the program lead a new process group when it starts.
#[cfg(unix)]
pub(crate) fn own_group(cmd: &mut Command) {
    use std::os::unix::process::CommandExt;
    cmd.process_group(0);
}

#[cfg(not(unix))]
pub(crate) fn own_group(_cmd: &mut Command) {}

/// SIGKILL to every process of the group `child` leads. Sent even when the
/// leader has exited (its children may not have): the group's id stays
/// taken while any member lives, so it names no other process then.
pub(crate) fn kill_group(child: &mut Child) {
    let id = child.id();
    LIVE.lock()
        .unwrap_or_else(|e| e.into_inner())
        .retain(|&g| g != id);
    #[cfg(unix)]
    signal_group(id);
    #[cfg(not(unix))]
    let _ = child.kill();
}

/// SIGKILL to the process group `pgid`.
#[cfg(unix)]
fn signal_group(pgid: u32) {
    let Ok(pgid) = libc::pid_t::try_from(pgid) else {
        return;
    };
    // SAFETY: kill(2) takes plain integers and touches no memory of ours.
    // A negative pid names the group; one that has gone gives ESRCH, ignored.
    unsafe {
        libc::kill(-pgid, libc::SIGKILL);
    }
}

/// Elsewhere the engines' processes are not reachable by id alone.
#[cfg(not(unix))]
fn signal_group(_pgid: u32) {}
