//! Room for a large allocation (a hash table): the memory the system says is
//! available and what the process's address-space limit leaves, so that an
//! option asking for more is refused with a message instead of swapping the
//! machine, waking the OOM killer or aborting the process on a failed
//! allocation. Linux's `/proc` tells; elsewhere nothing is known and
//! nothing is refused.

/// Memory left free beside a new allocation (MiB): the search's stacks, the
/// rest of the process and the system's own needs.
pub const RESERVE_MIB: u64 = 256;

/// What is known about the room left, in MiB.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Room {
    /// `MemAvailable` of `/proc/meminfo`.
    pub available: Option<u64>,
    /// The address-space limit (`ulimit -v`) less the process's virtual size.
    pub address_space: Option<u64>,
}

impl Room {
    /// The room of this process now.
    pub fn now() -> Room {
        let read = |p: &str| std::fs::read_to_string(p).unwrap_or_default();
        Room {
            available: mem_available_mib(&read("/proc/meminfo")),
            address_space: address_space_left_mib(
                &read("/proc/self/limits"),
                &read("/proc/self/status"),
            ),
        }
    }

    /// `Ok` when `need` more MiB fit with [`RESERVE_MIB`] to spare; else
    /// what does not allow it, with the figures (`the system has ...`).
    pub fn fits(&self, need: u64) -> Result<(), NoRoom> {
        let want = need.saturating_add(RESERVE_MIB);
        if let Some(free) = self.available.filter(|&free| want > free) {
            return Err(NoRoom::Available { free });
        }
        if let Some(left) = self.address_space.filter(|&left| want > left) {
            return Err(NoRoom::AddressSpace { left });
        }
        Ok(())
    }
}

/// Why an allocation does not fit, with the figures (MiB).
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NoRoom {
    /// `MemAvailable` is short.
    #[error("the system has {free} MiB available (MemAvailable), {RESERVE_MIB} MiB of which are kept free")]
    Available { free: u64 },
    /// The address-space limit is short.
    #[error("the address-space limit (ulimit -v) leaves {left} MiB, {RESERVE_MIB} MiB of which are kept free")]
    AddressSpace { left: u64 },
}

/// The `MemAvailable` line of `/proc/meminfo` text, in MiB.
pub fn mem_available_mib(meminfo: &str) -> Option<u64> {
    kib_field(meminfo, "MemAvailable:").map(|k| k / 1024)
}

/// The `Max address space` soft limit of `/proc/self/limits` text less the
/// `VmSize` of `/proc/self/status` text, in MiB; `None` when unlimited or
/// unknown.
pub fn address_space_left_mib(limits: &str, status: &str) -> Option<u64> {
    let line = limits
        .lines()
        .find(|l| l.starts_with("Max address space"))?;
    let soft: u64 = line
        .trim_start_matches("Max address space")
        .split_whitespace()
        .next()?
        .parse()
        .ok()?; // "unlimited" does not parse: no limit
    let used_kib = kib_field(status, "VmSize:").unwrap_or(0);
    Some((soft / 1024).saturating_sub(used_kib) / 1024)
}

/// The number of a `Name:   1234 kB` line.
fn kib_field(text: &str, name: &str) -> Option<u64> {
    text.lines()
        .find_map(|l| l.strip_prefix(name))?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    const MEMINFO: &str = "MemTotal:       24684084 kB\nMemFree:        22288988 kB\n\
                           MemAvailable:    1048576 kB\nBuffers:           46648 kB\n";

    #[test]
    fn mem_available_is_read_in_mib() {
        assert_eq!(mem_available_mib(MEMINFO), Some(1024));
        assert_eq!(mem_available_mib("MemTotal: 5 kB\n"), None);
        assert_eq!(mem_available_mib(""), None);
    }

    #[test]
    fn the_address_space_limit_less_the_virtual_size_is_the_room() {
        let limits = "Limit                     Soft Limit           Hard Limit           Units\n\
                      Max cpu time              unlimited            unlimited            seconds\n\
                      Max address space         2147483648           unlimited            bytes\n";
        let status = "Name:\tgrasshopper\nVmPeak:\t  600000 kB\nVmSize:\t  524288 kB\n";
        assert_eq!(address_space_left_mib(limits, status), Some(1536));
        let unlimited = limits.replace("2147483648", "unlimited");
        assert_eq!(address_space_left_mib(&unlimited, status), None);
    }

    #[test]
    fn what_does_not_fit_is_refused_with_the_figures() {
        let room = Room {
            available: Some(1024),
            address_space: None,
        };
        assert_eq!(room.fits(512), Ok(()));
        let e = room.fits(4096).unwrap_err().to_string();
        assert_eq!(
            e,
            "the system has 1024 MiB available (MemAvailable), 256 MiB of which are kept free"
        );
        let limited = Room {
            available: None,
            address_space: Some(700),
        };
        assert_eq!(
            limited.fits(512).unwrap_err().to_string(),
            "the address-space limit (ulimit -v) leaves 700 MiB, 256 MiB of which are kept free"
        );
        assert_eq!(Room::default().fits(u64::MAX), Ok(()));
    }
}
