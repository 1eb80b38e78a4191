//! The engine and whatever it starts, as one process group (Unix): the
//! engine leads a group of its own, which its children join unless they
//! leave it, so ending the engine ends a wrapper script's children too
//! (killing the engine's own process alone left them running). Elsewhere
//! only the engine's own process is ended.

use std::process::{Child, Command};

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
#[cfg(unix)]
pub(crate) fn kill_group(child: &mut Child) {
    let Ok(pgid) = libc::pid_t::try_from(child.id()) else {
        return;
    };
    // SAFETY: kill(2) takes plain integers and touches no memory of ours.
    // A negative pid names the group; one that has gone gives ESRCH, ignored.
    unsafe {
        libc::kill(-pgid, libc::SIGKILL);
    }
}

#[cfg(not(unix))]
pub(crate) fn kill_group(child: &mut Child) {
    let _ = child.kill();
}
