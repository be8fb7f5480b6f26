//! Landlock: the program may touch only the paths its profile lists, with the rights listed,
//! and may not use TCP at all. Applied by the program's stage after the uid drop.
//!
//! Filesystem rights of ABI 5 and TCP bind/connect (ABI 4) are hard requirements: on an older
//! kernel `restrict` fails and the job does not run. The ABI-6 scopes (signals to, and
//! abstract unix sockets of, processes outside the sandbox) are added where available.

use std::path::{Path, PathBuf};

use landlock::{
    ABI, Access as _, AccessFs, AccessNet, BitFlags, CompatLevel, Compatible, LandlockStatus,
    PathBeneath, PathFd, Ruleset, RulesetAttr, RulesetCreatedAttr, RulesetStatus, Scope,
};

use super::spec::Access;

/// The ABI whose filesystem rights we require and handle.
const FS_ABI: ABI = ABI::V5;

fn rights(access: Access, is_dir: bool) -> BitFlags<AccessFs> {
    let rights = match access {
        Access::Read => AccessFs::from_read(FS_ABI) & !AccessFs::Execute,
        Access::ReadExec => AccessFs::from_read(FS_ABI),
        // Create, write, rename and remove files; never execute them, never make device
        // nodes, fifos, sockets or symlinks (nothing a compiler needs).
        Access::ReadWrite => {
            AccessFs::from_all(FS_ABI)
                & !(AccessFs::Execute
                    | AccessFs::MakeChar
                    | AccessFs::MakeBlock
                    | AccessFs::MakeFifo
                    | AccessFs::MakeSock
                    | AccessFs::MakeSym)
        }
        Access::Device => AccessFs::ReadFile | AccessFs::WriteFile | AccessFs::IoctlDev,
    };
    // A rule on a file may carry only file rights (else the kernel rejects the rule).
    if is_dir {
        rights
    } else {
        rights & AccessFs::from_file(FS_ABI)
    }
}

/// Restricts the calling process (and everything it executes) to `rules`. Returns the
/// kernel's Landlock ABI version for the logs.
pub(crate) fn restrict(rules: &[(PathBuf, Access)]) -> Result<i32, String> {
    let ruleset = Ruleset::default()
        .set_compatibility(CompatLevel::HardRequirement)
        .handle_access(AccessFs::from_all(FS_ABI))
        .and_then(|r| r.handle_access(AccessNet::BindTcp | AccessNet::ConnectTcp))
        .map_err(|e| format!("landlock (needs ABI 5): {e}"))?
        .set_compatibility(CompatLevel::BestEffort)
        .scope(Scope::AbstractUnixSocket | Scope::Signal)
        .map_err(|e| format!("landlock scopes: {e}"))?
        .set_compatibility(CompatLevel::HardRequirement);
    let mut created = ruleset
        .create()
        .map_err(|e| format!("landlock create: {e}"))?;
    for (path, access) in rules {
        let is_dir = Path::new(path).is_dir();
        let fd = PathFd::new(path).map_err(|e| format!("landlock {}: {e}", path.display()))?;
        created = created
            .add_rule(PathBeneath::new(fd, rights(*access, is_dir)))
            .map_err(|e| format!("landlock rule {}: {e}", path.display()))?;
    }
    let status = created
        .restrict_self()
        .map_err(|e| format!("landlock restrict: {e}"))?;
    if status.ruleset == RulesetStatus::NotEnforced {
        return Err("landlock ruleset not enforced".into());
    }
    Ok(match status.landlock {
        LandlockStatus::Available {
            kernel_abi: Some(v),
            ..
        } => v,
        LandlockStatus::Available { effective_abi, .. } => effective_abi as i32,
        _ => 0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_rules_carry_only_file_rights() {
        let file = rights(Access::ReadExec, false);
        assert!(file.contains(AccessFs::Execute));
        assert_eq!(file & !AccessFs::from_file(FS_ABI), BitFlags::empty());
        let rw = rights(Access::ReadWrite, true);
        assert!(rw.contains(AccessFs::WriteFile | AccessFs::MakeReg | AccessFs::RemoveFile));
        assert!(!rw.contains(AccessFs::Execute) && !rw.contains(AccessFs::MakeSym));
        assert!(!rights(Access::Read, true).contains(AccessFs::Execute));
    }
}
