//! GNU Backgammon driven through its Python module: a script of the
//! crate's `scripts/` folder run by `gnubg -t -q -p` in a fresh temporary
//! directory, with its input files written there and named to it by
//! environment variables, and the files it writes read back. The directory
//! goes when the run ends, whatever happens (`tempfile` removes it on drop).

use std::io;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus};

/// A Python script that gnubg runs.
#[derive(Copy, Clone, Debug)]
pub struct Script {
    /// Its file name in the run's directory.
    pub name: &'static str,
    pub text: &'static str,
}

/// Times gnubg's 0-ply evaluation and its `calibrate` (`backgammon bench`).
pub const TIMER: Script = Script {
    name: "timer.py",
    text: include_str!("../scripts/timer.py"),
};

/// Evaluates the positions after each legal move at 0-ply and at the
/// judge's plies (`backgammon errors`).
pub const JUDGE: Script = Script {
    name: "judge.py",
    text: include_str!("../scripts/judge.py"),
};

/// Classes positions as gnubg does (`backgammon rollout-check`).
pub const CLASSIFY: Script = Script {
    name: "classify.py",
    text: include_str!("../scripts/classify.py"),
};

/// Rolls positions out, printing gnubg's tables (`backgammon rollout-check`;
/// run it with [`run_on_terminal`]).
pub const ROLLOUT: Script = Script {
    name: "rollout.py",
    text: include_str!("../scripts/rollout.py"),
};

/// Gives each position's class, 0-ply chances and cubeful cube verdicts
/// at 0-ply and at the judge's plies (`backgammon cube-errors`).
pub const CUBE_JUDGE: Script = Script {
    name: "cube_judge.py",
    text: include_str!("../scripts/cube_judge.py"),
};

/// One run of a script.
#[derive(Clone, Debug, Default)]
pub struct Job<'a> {
    /// Files the script reads: the environment variable that names the
    /// file, and its text.
    pub inputs: Vec<(&'a str, String)>,
    /// Environment variables that name the files the script writes.
    pub outputs: Vec<&'a str>,
    /// Further environment variables.
    pub vars: Vec<(&'a str, String)>,
}

/// What a run left: gnubg's exit status, what it printed, and per entry of
/// [`Job::outputs`] the file the script wrote (or why it cannot be read).
#[derive(Debug)]
pub struct Ran {
    pub status: ExitStatus,
    pub stdout: String,
    pub outputs: Vec<io::Result<String>>,
}

/// A run that could not be made.
#[derive(Debug, thiserror::Error)]
pub enum GnubgError {
    /// No temporary directory for the script and its files.
    #[error("a temporary directory for gnubg's files: {0}")]
    TempDir(io::Error),
    /// The script or an input file cannot be written.
    #[error("{}: {source}", path.display())]
    Write { path: PathBuf, source: io::Error },
    /// gnubg does not start.
    #[error("{}: {source}", program.display())]
    Start { program: PathBuf, source: io::Error },
}

/// The file an environment variable names: `BG_IDS` is `bg_ids.txt`.
fn file_for(var: &str) -> String {
    format!("{}.txt", var.to_ascii_lowercase())
}

/// Runs `script` with gnubg's binary `program` (standard error is kept
/// apart from standard output, which gnubg fills with its progress).
pub fn run(program: &Path, script: Script, job: &Job) -> Result<Ran, GnubgError> {
    run_as(program, script, job, false)
}

/// As [`run`], with gnubg's output on a pseudo-terminal (through util-linux's
/// `script`): gnubg prints a rollout's progress and results only there.
pub fn run_on_terminal(program: &Path, script: Script, job: &Job) -> Result<Ran, GnubgError> {
    run_as(program, script, job, true)
}

fn run_as(program: &Path, script: Script, job: &Job, terminal: bool) -> Result<Ran, GnubgError> {
    let dir = tempfile::Builder::new()
        .prefix("gh-gnubg-")
        .tempdir()
        .map_err(GnubgError::TempDir)?;
    let write = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).map_err(|source| GnubgError::Write { path, source })
    };
    write(script.name, script.text)?;
    let script_path = dir.path().join(script.name);
    let mut command = if terminal {
        let mut c = Command::new("script");
        c.args(["-q", "-f", "-e", "-c"])
            .arg(format!(
                "'{}' -t -q -p '{}'",
                program.display(),
                script_path.display()
            ))
            .arg("/dev/null");
        c
    } else {
        let mut c = Command::new(program);
        c.args(["-t", "-q", "-p"]).arg(&script_path);
        c
    };
    for (var, text) in &job.inputs {
        write(&file_for(var), text)?;
        command.env(var, dir.path().join(file_for(var)));
    }
    for var in &job.outputs {
        command.env(var, dir.path().join(file_for(var)));
    }
    command.envs(job.vars.iter().map(|(k, v)| (k, v)));
    let o = command.output().map_err(|source| GnubgError::Start {
        program: program.to_path_buf(),
        source,
    })?;
    let outputs = job
        .outputs
        .iter()
        .map(|var| std::fs::read_to_string(dir.path().join(file_for(var))))
        .collect();
    Ok(Ran {
        status: o.status,
        stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
        outputs,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stand-in for gnubg, a shell script: it skips `-t -q -p`, prints
    /// the script's first line, and reads and writes the files the
    /// variables name, as the Python scripts do.
    #[test]
    fn inputs_are_named_by_variables_and_outputs_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let fake = dir.path().join("fake-gnubg");
        // Copies BG_IDS to BG_OUT with BG_PLIES appended.
        std::fs::write(
            &fake,
            "#!/bin/sh\nshift 3\nhead -n 1 \"$1\"\n{ cat \"$BG_IDS\"; echo \"$BG_PLIES\"; } > \"$BG_OUT\"\n",
        )
        .unwrap();
        let mode = std::os::unix::fs::PermissionsExt::from_mode(0o755);
        std::fs::set_permissions(&fake, mode).unwrap();
        let job = Job {
            inputs: vec![("BG_IDS", "4HPwATDgc/ABMA\n".to_string())],
            outputs: vec!["BG_OUT", "BG_NOTHING"],
            vars: vec![("BG_PLIES", "2".to_string())],
        };
        let ran = run(&fake, JUDGE, &job).unwrap();
        assert!(ran.status.success());
        assert_eq!(
            ran.stdout,
            JUDGE.text.lines().next().unwrap().to_string() + "\n"
        );
        assert_eq!(ran.outputs[0].as_deref().unwrap(), "4HPwATDgc/ABMA\n2\n");
        assert!(ran.outputs[1].is_err());
        let e = run(Path::new("/no/such/gnubg"), JUDGE, &job).unwrap_err();
        assert!(e.to_string().starts_with("/no/such/gnubg: "), "{e}");
    }
}
